// Row 9: the app's first start in a fresh process: PaydeskServices.start on an empty data
// folder with the in-memory secret store (the Sandbox profile, its RSA key, the embedded
// sandbox seeded with demo orders). Says ready once start() has resolved, then closes.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MemorySecretStore } from '../../../main/secrets';
import { PaydeskServices } from '../../../main/services/app';

const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bench-start-'));
const services = await PaydeskServices.start({
  dataDir,
  secrets: new MemorySecretStore(),
  operator: 'bench',
});
console.log(JSON.stringify({ ready: services.report.sandbox.running }));
await services.close();
rmSync(dataDir, { recursive: true, force: true });
