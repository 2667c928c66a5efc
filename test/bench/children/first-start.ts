// Row 9: the app's first start in a fresh process: PaydeskServices.start on an empty data
// folder with the in-memory secret store (the Sandbox profile, its RSA key, the embedded
// sandbox seeded with demo orders). Says ready once start() has resolved, then closes.
// Also reports where the time went: performance.now() counts from the process's start.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const entered = performance.now();
const [{ MemorySecretStore }, { PaydeskServices }] = await Promise.all([
  import('../../../main/secrets'),
  import('../../../main/services/app'),
]);
const imported = performance.now();
const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bench-start-'));
const services = await PaydeskServices.start({
  dataDir,
  secrets: new MemorySecretStore(),
  operator: 'bench',
});
const ready = performance.now();
console.log(
  JSON.stringify({
    ready: services.report.sandbox.running,
    enteredMs: entered,
    importMs: imported - entered,
    startMs: ready - imported,
  }),
);
await services.close();
rmSync(dataDir, { recursive: true, force: true });
