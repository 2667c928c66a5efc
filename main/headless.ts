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
