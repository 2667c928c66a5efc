// `tsx scripts/wal-pages.ts [--entries 100000] [--refunds 50]`: which B-trees the pages a refund
// writes to the desk's WAL belong to, per commit. A journal of the bench's size (row 6's
// fixture), a sandbox that forgives nothing and shows a refund final at once, sequential
// refunds through the order service, each of its own approved sale; the WAL's frame headers
// name the pages (test/support/wal-commits.ts) and SQLite's dbstat names their B-trees.
// A measurement for docs/performance.md ("What limits each figure"), not a test.

import { parseArgs } from 'node:util';

import { openDatabase } from '../main/store/sqlite/database';
import { Journal } from '../main/store/sqlite/journal';
import { SqliteJournalPort } from '../main/store/sqlite/journal-port';
import { separateJournalFixture } from '../test/bench/lib/journal-fixture';
import { orderDesk } from '../test/support/order-desk';
import { CONTROL_KEY } from '../test/support/samples';
import { approvedOrder, shopClient, shopProfile, startShopSandbox } from '../test/support/shop';
import { pageOwners, walCommitPages } from '../test/support/wal-commits';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '100000' },
    refunds: { type: 'string', default: '50' },
  },
});
const entries = Number(values.entries);
const refunds = Number(values.refunds);
const WARM_UP = 3;

const fixture = separateJournalFixture(entries, (m) => process.stderr.write(`${m}\n`));
const db = openDatabase(fixture.file);
db.pragma('wal_autocheckpoint = 0');
const sandbox = await startShopSandbox(CONTROL_KEY, { forgiveNothing: true, delayMs: 0 });
try {
  const profileId = shopProfile(db, sandbox);
  const port = new SqliteJournalPort(db, new Journal(db));
  const { orders } = await orderDesk(db, port, { profileId });
  const shop = shopClient(sandbox, CONTROL_KEY);
  const sales: string[] = [];
  for (let i = 0; i < refunds + WARM_UP; i++)
    sales.push(await approvedOrder(shop, 'SALE', '10.00'));

  const refund = async (orderid: string) => {
    const { clientOrderId } = orders.openAction();
    await orders.refund({ profileId, orderid, clientOrderId, amount: '2.50', reason: 'Damaged' });
    await orders.settled(clientOrderId);
  };
  for (const orderid of sales.splice(0, WARM_UP)) await refund(orderid);
  db.pragma('wal_checkpoint(TRUNCATE)');

  const perRefund: number[][][] = [];
  for (const orderid of sales) {
    const before = walCommitPages(fixture.file).length;
    await refund(orderid);
    perRefund.push(walCommitPages(fixture.file).slice(before));
  }
  await orders.close();

  const owners = pageOwners(db);
  const shapes = new Map<string, number>();
  for (const commits of perRefund) {
    const shape = commits.map((c) => c.length).join(' + ');
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  console.log(`${refunds} refunds on a journal of ${entries.toLocaleString('en-US')} entries`);
  console.log(
    `pages per commit (refunds): ${[...shapes].map(([s, n]) => `${s} (${n})`).join(', ')}`,
  );
  const commitsOf = Math.max(...perRefund.map((c) => c.length));
  const table = new Map<string, number[]>();
  for (const commits of perRefund)
    commits.forEach((pages, k) => {
      for (const page of pages) {
        const name =
          page === 1 ? 'page 1 (header, sqlite_schema)' : (owners.get(page) ?? `free page`);
        const row = table.get(name) ?? Array<number>(commitsOf).fill(0);
        row[k] = (row[k] ?? 0) + 1;
        table.set(name, row);
      }
    });
  const rows = [...table].sort(
    (a, b) => b[1].reduce((x, y) => x + y) - a[1].reduce((x, y) => x + y),
  );
  const header = Array.from({ length: commitsOf }, (_, k) => `commit ${k + 1}`);
  console.log(`| B-tree | ${header.join(' | ')} | per refund |`);
  console.log(`| --- | ${header.map(() => '---').join(' | ')} | --- |`);
  const totals = Array<number>(commitsOf).fill(0);
  for (const [name, counts] of rows) {
    counts.forEach((c, k) => (totals[k] = (totals[k] ?? 0) + c));
    const cells = counts.map((c) => (c / refunds).toFixed(2));
    console.log(
      `| ${name} | ${cells.join(' | ')} | ${(counts.reduce((x, y) => x + y) / refunds).toFixed(2)} |`,
    );
  }
  console.log(
    `| all | ${totals.map((t) => (t / refunds).toFixed(2)).join(' | ')} | ${(totals.reduce((x, y) => x + y) / refunds).toFixed(2)} |`,
  );
} finally {
  await sandbox.close();
  db.close();
  fixture.close();
}
