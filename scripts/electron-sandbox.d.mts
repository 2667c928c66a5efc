// Types for ./electron-sandbox.mjs, for the tests that import it.

import type { Env } from './electron-binary.mjs';

export function launchEnv(env: Env): Env;
export function sandboxAbortAdvice(output: string, binary: string): string | null;
