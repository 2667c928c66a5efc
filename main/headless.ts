// Paydesk's services without Electron, from the bundle the app ships (out/main/headless.cjs, next
// to index.cjs, sharing its chunks): `npm run bench` starts them in plain Node for its
// first-start figure, loaded as main/boot.ts loads the app, compile cache first.

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
