// What a refund writes to the desk's disk: one commit for each change of its journal entry
// (written ahead, acknowledged by the gateway, final), and no more; the acknowledgement and the
// final answer share one commit when the status asked right after the answer is final already.
// The recent-orders list is written in the write-ahead entry's commit; an answer that repeats
// what the entry already says writes nothing. Counted from the WAL file, as the disk sees it,
// against a sandbox that forgives nothing (a second request would be a second refund; "no
// record" right after sending), and the requests the gateway received, from its log. Each commit
// writes every page it changed to the WAL, and the next write-ahead's fsync waits for all of
// them: the pages a refund writes are counted too, by the B-tree each belongs to.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import type { OrderService } from '../../main/services/orders/orders';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { orderDesk } from '../support/order-desk';
import { CONTROL_KEY } from '../support/samples';
import { approvedOrder, shopClient, shopProfile, startShopSandbox } from '../support/shop';
import { pageOwners, walCommitPages, walCommits } from '../support/wal-commits';

/**
 * Pages a refund writes to the WAL on a small journal, both commits: the journal's row and one
 * page per index (13 of them: journal_orderid waits for the answer), the history and its
 * index, the AUTOINCREMENT counter, the order in the recent-orders list (its row and two
 * indexes); then the row again, the indexes whose columns the answer changes, the history.
 */
const PAGES_PER_REFUND = 29;

let dir: string;
let file: string;
let db: Db;
let sandbox: Sandbox;
let orders: OrderService;
let profileId: string;

/** The desk and its sandbox; `delayMs` 0: the sandbox shows a refund final at once. */
async function setUp(sandboxOptions: { forgiveNothing?: boolean; delayMs?: number } = {}) {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-refund-commits-'));
  file = join(dir, 'paydesk.sqlite');
  db = openDatabase(file);
  // The WAL keeps every commit of the test: no checkpoint restarts it meanwhile.
  db.pragma('wal_autocheckpoint = 0');
  sandbox = await startShopSandbox(CONTROL_KEY, sandboxOptions);
  profileId = shopProfile(db, sandbox);
  const port = new SqliteJournalPort(db, new Journal(db));
  const wait = { delayAfter: () => 25, giveUpAfterMs: 20_000 };
  orders = (await orderDesk(db, port, { profileId, wait })).orders;
}

afterEach(async () => {
  await orders.close();
  await sandbox.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The requests the gateway received naming the order or the refund's id, oldest first. */
function requestsAbout(orderid: string, clientOrderId: string): string[] {
  return sandbox
    .requests()
    .filter((r) => r.orderid === orderid || r.clientOrderId === clientOrderId)
    .map((r) => r.operation);
}

describe('a refund on disk', () => {
  beforeEach(() => setUp());

  it('commits once per change of its entry: written ahead, acknowledged, final', async () => {
    const orderid = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    sandbox.misbehave({ noDedupe: true, visibilityDelayMs: 100 });
    const before = walCommits(file);
    const { clientOrderId } = orders.openAction();
    await orders.refund({ profileId, orderid, clientOrderId, amount: '2.50', reason: 'Damaged' });
    const settled = await orders.settled(clientOrderId);
    expect(settled).toMatchObject({ state: 'final', status: 'approved' });

    // Every change a clerk can see in the entry's history, and the order in the recent list.
    const journal = new Journal(db);
    expect(journal.history(clientOrderId).map((step) => step.state)).toEqual([
      'sending',
      'acknowledged',
      'final',
    ]);
    expect(orders.recentOrders(profileId).map((r) => r.orderId)).toContain(orderid);
    expect(walCommits(file) - before).toBe(3);
  });

  it('a refused refund still remembers the order it read', async () => {
    const orderid = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    const { clientOrderId } = orders.openAction();
    await expect(
      orders.refund({ profileId, orderid, clientOrderId, amount: '10.01', reason: 'Damaged' }),
    ).rejects.toThrow(/more than what is left/);
    expect(orders.recentOrders(profileId).map((r) => r.orderId)).toEqual([orderid]);
  });
});

describe('a refund the gateway shows final at once', () => {
  beforeEach(() => setUp({ forgiveNothing: true, delayMs: 0 }));

  it('commits twice: written ahead, then acknowledged and final together', async () => {
    const orderid = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    const before = walCommits(file);
    const { clientOrderId } = orders.openAction();
    const result = await orders.refund({
      profileId,
      orderid,
      clientOrderId,
      amount: '2.50',
      reason: 'Damaged',
    });

    // The clerk is answered with the final status, which the journal already holds.
    expect(result.entry).toMatchObject({ state: 'final', status: 'approved' });
    const journal = new Journal(db);
    expect(journal.get(clientOrderId)).toMatchObject({ state: 'final', status: 'approved' });
    // Both answers are steps of the entry's history, as when they were written apart.
    expect(journal.history(clientOrderId).map((step) => step.state)).toEqual([
      'sending',
      'acknowledged',
      'final',
    ]);
    expect(walCommits(file) - before).toBe(2);
    await orders.settled(clientOrderId);
    expect(walCommits(file) - before).toBe(2);
    // The gateway was asked what it always was: the order's status, the refund once, and the
    // refund's status once (the follow-up had nothing left to ask).
    expect(requestsAbout(orderid, clientOrderId).slice(-3)).toEqual(['STATUS', 'RETURN', 'STATUS']);
    expect(sandbox.received('RETURN')).toBe(1);
    expect(sandbox.orders('1111').filter((o) => o.kind === 'reversal')).toHaveLength(1);
  });

  it('writes few pages: no page of the orderid index before the gateway answers', async () => {
    const shop = shopClient(sandbox, CONTROL_KEY);
    const refund = async () => {
      const orderid = await approvedOrder(shop, 'SALE', '10.00');
      const { clientOrderId } = orders.openAction();
      await orders.refund({ profileId, orderid, clientOrderId, amount: '2.50', reason: 'Damaged' });
      await orders.settled(clientOrderId);
    };
    // The first refund makes the statements and the pages a refund writes in.
    await refund();
    const before = walCommitPages(file).length;
    const refunds = 5;
    for (let i = 0; i < refunds; i++) await refund();
    const commits = walCommitPages(file).slice(before);
    expect(commits).toHaveLength(2 * refunds);

    const owners = pageOwners(db);
    const named = (pages: number[]) => pages.map((page) => owners.get(page) ?? `page ${page}`);
    const writeAheads = commits.filter((_, i) => i % 2 === 0).map(named);
    // The orderid is not known before the gateway answers: its index is not written ahead.
    for (const pages of writeAheads) expect(pages).not.toContain('journal_orderid');
    const pages = commits.reduce((n, c) => n + c.length, 0) / refunds;
    expect(pages).toBeLessThanOrEqual(PAGES_PER_REFUND);
  });
});
