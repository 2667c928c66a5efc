// Issue 15, points 2 and 3: what Paydesk says and records once a request may have left.
// - The disk fills while a refund is at the gateway: the gateway approves it, the journal
//   cannot write the answer. Nobody may hear "nothing was sent": the order stays blocked as
//   pending, the clerk hears what is known, and the write is retried until it lands.
// - A `status` answer about another order than the one asked about is a typed error, and
//   nothing is recorded from it (a hostile server answers with another order's approval).

import { createServer, type Server } from 'node:http';

import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';

import { IdentityError } from '../../main/gateway/errors';
import type { Sandbox } from '../../main/sandbox';
import { Journal } from '../../main/store/sqlite/journal';
import type { JournalEntry } from '../../main/store/journal/types';
import type { Db } from '../../main/store/sqlite/database';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder, shopClient } from '../support/shop';
import {
  CONTROL_KEY,
  createDesk,
  reversalsOf,
  startUnforgivingSandbox,
  summary,
  type Desk,
} from './support';

const tally = { tried: 0, held: 0 };
afterAll(() => summary('honest-after-sending', tally.tried, tally.held));

let sandbox: Sandbox;
let desk: Desk;

beforeEach(async () => {
  sandbox = await startUnforgivingSandbox(200);
  desk = createDesk(sandbox);
});

afterEach(async () => {
  await sandbox.close();
  desk.dispose();
});

/** A journal on a disk that is full for the next `failures` writes of an answer. */
class FullDiskJournal extends Journal {
  failures: number;
  constructor(db: Db, failures: number) {
    super(db);
    this.failures = failures;
  }
  private diskFull(): void {
    if (this.failures > 0) {
      this.failures--;
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    }
  }
  override acknowledge(clientOrderId: string, orderId: string | undefined): JournalEntry {
    this.diskFull();
    return super.acknowledge(clientOrderId, orderId);
  }
  override markUnknown(clientOrderId: string, error: { code?: string; message: string }) {
    this.diskFull();
    return super.markUnknown(clientOrderId, error);
  }
}

it('a refund whose answer cannot be written stays pending, says it was sent, and is recorded later', async () => {
  let journal: FullDiskJournal | undefined;
  const paydesk = await desk.start({
    journal: (db) => (journal = new FullDiskJournal(db, 8)),
    recordRetry: { foreground: 3, background: 10, firstDelayMs: 20, maxDelayMs: 200 },
  });
  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  const { clientOrderId } = paydesk.service.openAction();
  const attempt = paydesk.service.refund({
    profileId: desk.profileId,
    orderid: saleId,
    clientOrderId,
    amount: '4.00',
    reason: 'Damaged',
  });
  await expect(attempt).rejects.toMatchObject({ code: 'NOT_RECORDED' });
  const message = String(await attempt.catch((e: unknown) => e));
  expect(message).toMatch(/was sent to the gateway, which received it/);
  expect(message).not.toMatch(/nothing was sent|not sent/i);

  // Meanwhile the order is blocked: the refund is pending and counted.
  const during = await paydesk.service.lookup(desk.profileId, { orderid: saleId });
  expect(during.pending.map((p) => p.amount)).toEqual(['4.00']);
  expect(during).toMatchObject({ remainingRefundable: '6.00' });
  expect(during.actions.refund.allowed).toBe(false);
  // A retry of the same action sends nothing and says the same.
  await expect(
    paydesk.service.refund({
      profileId: desk.profileId,
      orderid: saleId,
      clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    }),
  ).rejects.toMatchObject({ code: 'NOT_RECORDED' });

  // The disk has room again: the answer is written and followed to the final status.
  expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
    state: 'final',
    status: 'approved',
  });
  expect(journal?.failures).toBe(0);
  const after = await paydesk.service.lookup(desk.profileId, { orderid: saleId });
  expect(after).toMatchObject({ refunded: '4.00', remainingRefundable: '6.00', pending: [] });
  expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
  await paydesk.stop();
  tally.tried++;
  tally.held++;
});

/** A gateway that answers every status with an approval of another order. */
async function hostileGateway(): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'Content-Type': 'application/vnd.pay+json' }).end(
        JSON.stringify({
          type: 'status-response',
          status: 'approved',
          'merchant-order-id': 'someone-else',
          'paynet-order-id': '999999',
          'transaction-type': 'reversal',
          amount: '4.00',
          currency: 'EUR',
        }),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, baseUrl: `http://127.0.0.1:${port}/paynet` };
}

it('an answer about another order is a typed error, and nothing is recorded from it', async () => {
  const hostile = await hostileGateway();
  try {
    // An unsettled refund in the journal, as a crash leaves it.
    const paydesk = await desk.start({ quarantineMs: 60_000 });
    const { journal, service } = paydesk;
    journal.begin({
      clientOrderId: 'pd-identity-1',
      profileId: desk.profileId,
      operator: 'ann',
      operation: 'RETURN',
      targetOrderId: '1000001',
      amountMinor: 400n,
      currency: 'EUR',
      fields: { client_orderid: 'pd-identity-1', orderid: '1000001', amount: '4.00' },
    });
    journal.markUnknown('pd-identity-1', { code: 'TIMEOUT', message: 'No answer' });
    new Profiles(paydesk.db).setBaseUrl(desk.profileId, hostile.baseUrl);

    await expect(service.lookup(desk.profileId, { orderid: '1000001' })).rejects.toThrow(
      IdentityError,
    );
    await service.reconcile();
    await service.close();
    expect(journal.get('pd-identity-1')).toMatchObject({
      state: 'unknown',
      status: null,
      orderId: null,
    });
    await paydesk.stop();
    tally.tried += 2;
    tally.held += 2;
  } finally {
    await new Promise((resolve) => hostile.server.close(resolve));
  }
});
