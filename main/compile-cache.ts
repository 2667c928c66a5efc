// V8's compile cache for Paydesk's own bundle: the first start on a computer compiles the main
// process's JavaScript and leaves the result in Paydesk's cache folder; every later start (a new
// data folder included) loads it instead of compiling again. It is an optimisation only: a
// runtime without it, a folder that cannot be written or a stale entry just compiles the code.

import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Paydesk's cache folder, apart from its data (the user data folder holds the databases and
 * the log): where each system keeps an application's caches.
 */
export function appCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Paydesk', 'Cache');
  }
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'Paydesk');
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec ignores a relative path.
  return join(xdg?.startsWith('/') ? xdg : join(home, '.cache'), 'Paydesk');
}

/**
 * Turns the cache on for every module loaded from now on (so: before the bundle's chunks are
 * required). Node >= 22.8 has it (Electron 45's Node too); older runtimes are left as they are.
 * Says whether it asked for it.
 */
export function enableCompileCache(
  directory: string = join(appCacheDir(), 'compile-cache'),
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (typeof module.enableCompileCache !== 'function') return false;
  // An AppImage is mounted at a new path on every start, and the cache is keyed by the files'
  // paths: each start would add entries no later start reads, without end.
  if (env.APPIMAGE) return false;
  try {
    module.enableCompileCache(directory);
    return true;
  } catch {
    // Never fatal: the modules compile as they would without it.
    return false;
  }
}

/**
 * Writes what has been compiled so far. Node writes it at a normal exit too, but Electron may
 * end the process without running Node's exit hooks; after start is the useful moment.
 */
export function flushCompileCache(): void {
  if (typeof module.flushCompileCache !== 'function') return;
  try {
    module.flushCompileCache();
  } catch {
    // As above.
  }
}
