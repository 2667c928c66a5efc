// npm run screenshots: every screen as a PNG in docs/screenshots/, taken from the browser test
// harness (the built renderer, the real bridge and services, the embedded sandbox's demo
// orders). The README shows them; look at them after any change to a screen.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

import { closeSharedBrowser, startHarness } from '../test/harness/harness';
import { shootAdmin } from '../test/e2e/shots/admin';
import { shootBackups, shootJournalStop } from '../test/e2e/shots/backups';
import { shootBatch } from '../test/e2e/shots/batch';
import { shootLifecycle } from '../test/e2e/shots/lifecycle';
import { shootNetwork } from '../test/e2e/shots/network';
import { shootMoney } from '../test/e2e/shots/money';
import { shootOrders } from '../test/e2e/shots/orders';
import { shootTeam } from '../test/e2e/shots/team';
import { shootTools } from '../test/e2e/shots/tools';
import { shootUpdates } from '../test/e2e/shots/updates';
import { teamHarness } from '../test/support/journal-ports';
import { postgresAvailability, startCluster } from '../test/support/postgres';

const dir = resolve(import.meta.dirname, '..', 'docs', 'screenshots');
mkdirSync(dir, { recursive: true });

const written: string[] = [];
for (const shoot of [
  shootOrders,
  shootAdmin,
  shootTools,
  shootMoney,
  shootBatch,
  shootLifecycle,
  shootNetwork,
  shootBackups,
]) {
  // A fresh first start for each set, so one set's actions never show up in the other's.
  const h = await startHarness();
  try {
    written.push(...(await shoot(h, dir)));
  } finally {
    await h.close();
  }
}
// Settings -> Updates: a harness of its own, with a feed on 127.0.0.1 and a refund in flight.
written.push(...(await shootUpdates(dir)));
// The stop of a start that finds its journal emptied: a data folder of its own, removed after.
const stopDir = mkdtempSync(join(tmpdir(), 'paydesk-shots-stop-'));
try {
  written.push(...(await shootJournalStop(stopDir, dir)));
} finally {
  rmSync(stopDir, { recursive: true, force: true });
}
// Team mode needs a PostgreSQL: a throw-away cluster, as the team tests start.
const postgres = postgresAvailability();
if (postgres.usable) {
  const cluster = await startCluster();
  const team = await teamHarness(cluster, 'screens');
  try {
    written.push(...(await shootTeam(cluster, team, dir)));
  } finally {
    await team.close();
    await cluster.stop();
  }
} else {
  console.warn(`No team screenshots: ${postgres.reason}`);
}
await closeSharedBrowser();
for (const file of written) console.log(relative(process.cwd(), file));
