// The native modules (better-sqlite3, keytar) are built for one runtime at a time: Electron
// (after `npm start` on a machine with Electron) or Node (the tests). Before the tests run, this
// rebuilds them for Node if they were last built for Electron, and does nothing otherwise.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const stale = ['better-sqlite3', 'keytar'].filter((name) => {
  try {
    require(name);
    return false;
  } catch (error) {
    return /NODE_MODULE_VERSION|did not self-register/.test(String(error));
  }
});
if (stale.length > 0) {
  console.log(`Rebuilding ${stale.join(', ')} for Node (they were built for Electron)...`);
  const result = spawnSync('npm', ['rebuild', ...stale], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
