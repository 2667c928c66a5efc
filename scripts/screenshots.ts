// npm run screenshots: every screen as a PNG in docs/screenshots/, taken from the browser test
// harness (the built renderer, the real bridge and services, the embedded sandbox's demo
// orders). The README shows them; look at them after any change to a screen.
//
// A second run must leave `git status` clean, so everything a picture shows is fixed here and
// only here: the clock (test/harness/fixed-clock.ts, which the other modules load after, hence
// the dynamic imports), node:crypto's randomness (fixed-random.ts), the action ids, the
// built-in sandbox's port, the keys Generate makes, the team cluster's port, the data folders.
// The app itself keeps its real clock, randomness, ids, ports, keys and folders.

import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { installFixedClock } from '../test/harness/fixed-clock';
import { installFixedRandomness, restartFixedRandomness } from '../test/harness/fixed-random';

const clock = installFixedClock();
installFixedRandomness();

const { publicKeyMaterial } = await import('../main/keys/native');
const { closeSharedBrowser, startHarness, useFixedInputs } =
  await import('../test/harness/harness');
const { shootAdmin } = await import('../test/e2e/shots/admin');
const { shootBackups, shootJournalStop } = await import('../test/e2e/shots/backups');
const { shootBatch } = await import('../test/e2e/shots/batch');
const { shootLifecycle } = await import('../test/e2e/shots/lifecycle');
const { shootNetwork } = await import('../test/e2e/shots/network');
const { shootMoney } = await import('../test/e2e/shots/money');
const { shootOrders } = await import('../test/e2e/shots/orders');
const { shootOrderPage } = await import('../test/e2e/shots/order-page');
const { shootReconcile } = await import('../test/e2e/shots/reconcile');
const { shootTeam } = await import('../test/e2e/shots/team');
const { shootTools } = await import('../test/e2e/shots/tools');
// Reports: the daily close from a fixed fortnight of entries.
const { shootReports } = await import('../test/e2e/shots/reports');
const { shootUpdates } = await import('../test/e2e/shots/updates');
const { teamHarness } = await import('../test/support/journal-ports');
const { postgresAvailability, startCluster } = await import('../test/support/postgres');

const root = resolve(import.meta.dirname, '..');
const dir = resolve(root, 'docs', 'screenshots');
mkdirSync(dir, { recursive: true });

// Test-only keys for every key the pictures show: the built-in sandbox's, and the one Keys ->
// Generate makes (another: a key pair belongs to one profile).
const testKey = (...path: string[]) => {
  const pem = readFileSync(resolve(root, 'test', ...path), 'utf8');
  return () => Promise.resolve({ ...publicKeyMaterial(pem), privateKeyPkcs8Pem: pem });
};
const sandboxKey = testKey('unit', 'keys', 'fixtures', 'test-only-rsa2048-pkcs8.pem');
const generatedKey = testKey('harness', 'fixtures', 'test-only-screenshots-rsa2048-pkcs8.pem');
/** A loopback port the pictures show (Profiles' base URL); harnesses run one at a time. */
const SANDBOX_PORT = 47_613;
/** The team cluster's port, typed into Settings -> Team journal on the pictures. */
const TEAM_PORT = 47_614;
/** The update feed's port, shown on Settings -> Updates. */
const UPDATES_FEED_PORT = 47_615;

/** The desks' data folders: Team journal shows where its settings are saved. */
const DATA_ROOT = '/tmp/paydesk-screenshots';
rmSync(DATA_ROOT, { recursive: true, force: true }); // this script's own, from a run cut short

useFixedInputs(() => {
  restartFixedRandomness();
  let next = 0;
  return {
    clock,
    services: {
      sandboxPort: SANDBOX_PORT,
      // A backup made on its own after some seconds would show or not by how long a set took.
      backups: 'off',
      // Its delays are measured on the fixed clock, which stands still between pages.
      sandboxDelayMs: 0,
      newActionId: () => `pd-shot-${String(++next).padStart(4, '0')}`,
      makeKey: generatedKey,
      makeSandboxKey: sandboxKey,
    },
  };
}, DATA_ROOT);

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
  // Reports: the daily close.
  shootReports,
  shootReconcile,
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
written.push(...(await shootUpdates(dir, UPDATES_FEED_PORT)));
// The stop of a start that finds its journal emptied: a data folder of its own, removed after.
const stopDir = join(DATA_ROOT, 'paydesk-shots-stop');
mkdirSync(stopDir, { recursive: true });
try {
  written.push(...(await shootJournalStop(stopDir, dir)));
} finally {
  rmSync(stopDir, { recursive: true, force: true });
}
// Team mode needs a PostgreSQL: a throw-away cluster, as the team tests start.
const postgres = postgresAvailability();
if (postgres.usable) {
  const cluster = await startCluster({ port: TEAM_PORT });
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
// The order page: a harness of its own, last, so that the clock's steps and the data folders'
// numbers of every set above stay as they were.
{
  const h = await startHarness();
  try {
    written.push(...(await shootOrderPage(h, dir)));
  } finally {
    await h.close();
  }
}
await closeSharedBrowser();
rmSync(DATA_ROOT, { recursive: true, force: true });
for (const file of written) console.log(relative(process.cwd(), file));
