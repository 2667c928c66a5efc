// What the journal port costs per money-moving action on each store: the claim (the order's
// entries read, the decision, the write-ahead entry, under the order's lock) and a whole life
// (claim, acknowledged, final). SQLite on a temp file with synchronous=FULL, as the app opens it;
// PostgreSQL on a throw-away local cluster (no fsync, loopback: a lower bound for a real server,
// which adds its network round trips, about six per claim and four per answer).
// Run: npx tsx test/bench/journal-port.ts (needs PostgreSQL's server binaries, as test/team does).

import { randomUUID } from 'node:crypto';

import { Bench } from 'tinybench';

import type { JournalPort, NewJournalEntry } from '../../main/store/journal/port';
import { sqliteHarness, teamHarness } from '../support/journal-ports';
import { startCluster } from '../support/postgres';

const PROFILE = 'p-bench';

function refund(orderId: string, clientOrderId: string): NewJournalEntry {
  return {
    clientOrderId,
    profileId: PROFILE,
    operator: 'ann',
    operation: 'return',
    targetOrderId: orderId,
    amountMinor: 500n,
    currency: 'EUR',
    reason: 'Damaged',
    fields: { amount: '5.00' },
  };
}

async function claim(journal: JournalPort, orderId: string) {
  const clientOrderId = `pd-${randomUUID()}`;
  const result = await journal.claim(
    { profileId: PROFILE, orderId, clientOrderId, action: 'refunding' },
    (entries) => ({ entry: refund(orderId, clientOrderId), decided: entries.length }),
  );
  if (result.claimed) throw new Error('claimed twice');
  return result.entry;
}

const cluster = await startCluster();
const team = await teamHarness(cluster, 'bench');
const sqlite = sqliteHarness();
try {
  await team.addProfile(PROFILE);
  await sqlite.addProfile(PROFILE);
  const stores: [string, JournalPort][] = [
    ['SQLite', sqlite.port],
    ['PostgreSQL (local)', team.desk('ann', 'Front-1')],
  ];
  const bench = new Bench({ name: 'journal port, per action', time: 2000 });
  let n = 0;
  for (const [name, journal] of stores) {
    // Orders of a few entries each, as a busy order has.
    bench.add(`${name}: claim (decide + write-ahead)`, async () => {
      await claim(journal, `o-${n++ % 200}`);
    });
    bench.add(`${name}: claim, acknowledged, final`, async () => {
      const entry = await claim(journal, `o-${n++ % 200}`);
      await journal.acknowledge(entry.clientOrderId, `g-${entry.id}`);
      await journal.finish(entry.clientOrderId, { status: 'approved' });
    });
  }
  await bench.run();
  console.log(bench.name);
  console.table(bench.table());
} finally {
  await sqlite.close();
  await team.close();
  await cluster.stop();
}
