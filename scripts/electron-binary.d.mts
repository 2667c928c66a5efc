// Types for ./electron-binary.mjs (plain JavaScript so `node scripts/start.mjs` runs on any
// supported Node without a compile step), for the tests that import it.

export type InstallFailure = 'failed' | 'stalled' | 'too-slow' | 'not-started';
export type MissingReason =
  InstallFailure | 'override-missing' | 'no-package' | 'nothing-installed';

export interface Env {
  [name: string]: string | undefined;
}

export function platformExecutable(platform?: string): string;
export function electronPackageDir(root: string): string | null;
export function findElectronBinary(electronDir: string, env?: Env): string | null;

export function installElectron(options: {
  electronDir: string;
  /** The installer as [file, ...args]; by default `node <electronDir>/install.js`. */
  command?: string[];
  env?: Env;
  stallMs?: number;
  maxMs?: number;
  pollMs?: number;
  /** false: the installer's output is piped to `print` instead of sharing this terminal. */
  inheritStdio?: boolean;
  print?: (text: string) => void;
}): Promise<{ ok: true } | { ok: false; reason: InstallFailure; detail: string; cause: string }>;

export function missingElectronAdvice(options: {
  reason: MissingReason;
  version: string;
  scripts?: Record<string, string>;
  env?: Env;
  limits?: { stallSeconds: number; maxMinutes: number };
  /** Why the download failed, as download-cause.cjs saw it: 'ENOTFOUND github.com'. */
  cause?: string;
}): string;

export function startApp(options: {
  root: string;
  args?: string[];
  env?: Env;
  electronDir?: string | null;
  inheritStdio?: boolean;
  print?: (text: string) => void;
  pollMs?: number;
}): Promise<number>;

/** The URL Electron's installer fetches, as @electron/get computes it. */
export function downloadUrl(version: string, env?: Env): string;
