// Paydesk's services without Electron, on the chunks of the bundle the app ships: only
// `npm run bench` builds it (vite.main.config.ts --mode bench, out/main/headless.cjs beside
// index.cjs) and starts it in plain Node for its first-start figure, loaded as main/boot.ts loads
// the app, compile cache first. The app's own build leaves it out.

import { enableCompileCache } from './compile-cache';

export async function loadServices(options: { compileCacheDir?: string } = {}) {
  enableCompileCache(options.compileCacheDir);
  const [{ PaydeskServices }, { MemorySecretStore }] = await Promise.all([
    import('./services/app'),
    import('./secrets/memory'),
  ]);
  return { PaydeskServices, MemorySecretStore };
}

/**
 * The bridge's contract (common/contract.ts: a zod schema for every call), which the app builds
 * before its first window, after the services: the bench times it apart, since it is not part
 * of "services ready" but is part of what a user waits for.
 */
export function loadBridgeContract(): Promise<unknown> {
  return import('../common/contract');
}
