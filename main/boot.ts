// The main process's entry (out/main/index.cjs): turns V8's compile cache on, then loads the app
// (main/index.ts and everything under it, bundled in chunks required from here), so those
// chunks are compiled from the cache from the second start on this computer.

import { enableCompileCache } from './compile-cache';

enableCompileCache();
import('./index').catch((error: unknown) => {
  // A bundle that cannot load opens no window, and nothing would ever quit the app.
  console.error('Paydesk failed to start.', error);
  process.exit(1);
});
