// The order use cases against the real sandbox over HTTP, a real SQLite file, and the
// in-memory SecretStore: what finance would see when capturing, voiding and refunding.

import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { GatewayClient } from '../../main/gateway/client';
import { TransportError } from '../../main/gateway/errors';
import type { Sandbox } from '../../main/sandbox';
import { approvedOrder, shopClient, shopProfile, startShopSandbox } from '../support/shop';
import type { OrderService } from '../../main/services/orders/orders';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { syncFile } from '../../main/store/sqlite/durability';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { CONTROL_KEY } from '../support/samples';
import { orderDesk } from '../support/order-desk';

const fast = { delayAfter: () => 25, giveUpAfterMs: 20_000 };

let dir: string;
let db: Db;
let sandbox: Sandbox;
let journal: Journal;
let service: OrderService;
let profileId: string;
let direct: GatewayClient;

/**
 * `syncWal`: how the journal's WAL is synced to disk (SqliteJournalPort's option); `wait`: how
 * the service follows an answer up (quickly by default).
 */
async function newService(
  syncWal?: (path: string) => Promise<void>,
  wait = fast,
  syncWalNow?: (path: string) => void,
): Promise<OrderService> {
  const port = new SqliteJournalPort(db, journal, {
    ...(syncWal ? { syncWal } : {}),
    ...(syncWalNow ? { syncWalNow } : {}),
  });
  return (await orderDesk(db, port, { profileId, wait })).orders;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-orders-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  journal = new Journal(db);
  sandbox = await startShopSandbox(CONTROL_KEY);
  profileId = shopProfile(db, sandbox);
  direct = shopClient(sandbox, CONTROL_KEY);
  service = await newService();
});

afterEach(async () => {
  await service.close();
  await sandbox.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A refund whose answer the gateway drops after recording it. */
async function refundWithLostAnswer(orderId: string, clientOrderId: string, amount: string) {
  sandbox.misbehave({ dropAnswerShare: 1, operations: ['RETURN'] });
  await expect(
    service.refund({ profileId, orderid: orderId, clientOrderId, amount, reason: 'Damaged' }),
  ).rejects.toThrow(TransportError);
  sandbox.misbehave({});
}

/** fsync of a file's data on this thread, as the kept WAL file's syncNow does. */
function syncFileNow(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const sandboxCount = (kind: string) => sandbox.orders('1111').filter((o) => o.kind === kind).length;

describe('lookup', () => {
  it('shows an approved sale with the refund and void it allows, and no capture', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.42');
    const view = await service.lookup(profileId, { orderid: orderId });
    expect(view).toMatchObject({
      status: 'approved',
      final: true,
      transactionType: 'sale',
      amount: '10.42',
      currency: 'EUR',
      remainingRefundable: '10.42',
      card: { lastFour: '1111' },
      actions: {
        refund: { allowed: true, max: '10.42' },
        void: { allowed: true },
        capture: { allowed: false },
      },
    });
    expect(view.actions.capture.reason).toMatch(/Only a preauth can be captured/);
  });

  it('answers "not found" neutrally for an order that does not exist, naming it', async () => {
    await expect(service.lookup(profileId, { orderid: '999999' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^The gateway has no order with orderid 999999 /) as string,
    });
  });

  it('refuses an orderid that is not digits before anything is sent', async () => {
    await expect(service.lookup(profileId, { orderid: 'demo-sale-1001' })).rejects.toMatchObject({
      code: 'INPUT',
      field: 'orderid',
      message: expect.stringMatching(/digits only/) as string,
    });
  });
});

describe('refund', () => {
  it('partial refund: pending, then final, recorded in the journal, and what is left shrinks', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.42');
    const { clientOrderId } = service.openAction();
    const { entry } = await service.refund({
      profileId,
      orderid: orderId,
      clientOrderId,
      amount: '2.29',
      reason: 'Returned goods',
    });
    expect(entry).toMatchObject({
      state: 'acknowledged',
      amountMinor: 229n,
      operator: 'ann',
      targetOrderId: orderId,
    });
    const during = await service.lookup(profileId, { orderid: orderId });
    expect(during.pending).toEqual([
      expect.objectContaining({ clientOrderId, operation: 'RETURN', amount: '2.29' }),
    ]);
    expect(during.actions.refund).toMatchObject({ allowed: false });
    expect(during.actions.refund.reason).toMatch(/still pending/);
    expect(await service.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    const after = await service.lookup(profileId, { orderid: orderId });
    expect(after).toMatchObject({ refunded: '2.29', remainingRefundable: '8.13', pending: [] });
    expect(after.actions.void).toMatchObject({ allowed: false });
  });

  it('refuses more than what is left before anything is sent or journaled', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '5.00');
    await expect(
      service.refund({
        profileId,
        orderid: orderId,
        clientOrderId: service.openAction().clientOrderId,
        amount: '5.01',
        reason: 'Other',
        note: 'x',
      }),
    ).rejects.toThrow(/5.01 EUR is more than what is left, 5.00 EUR/);
    expect(journal.search().total).toBe(0);
    expect(sandboxCount('reversal')).toBe(0);
  });

  it('requires a reason, and a note when the reason is Other', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '5.00');
    const clientOrderId = service.openAction().clientOrderId;
    await expect(
      service.refund({ profileId, orderid: orderId, clientOrderId, amount: '1.00' }),
    ).rejects.toThrow(/Give a reason/);
    await expect(
      service.refund({
        profileId,
        orderid: orderId,
        clientOrderId,
        amount: '1.00',
        reason: 'Other',
      }),
    ).rejects.toThrow(/write a note/);
  });

  it('two refunds of the same order at once: the second is refused, never sent', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    const first = service.refund({
      profileId,
      orderid: orderId,
      clientOrderId: service.openAction().clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    });
    const second = service.refund({
      profileId,
      orderid: orderId,
      clientOrderId: service.openAction().clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    });
    const results = await Promise.allSettled([first, second]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(String(refused?.reason)).toMatch(/still pending/);
    expect(sandboxCount('reversal')).toBe(1);
  });

  it('a retry after a lost answer asks status first and does not refund twice', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    const { clientOrderId } = service.openAction();
    await refundWithLostAnswer(orderId, clientOrderId, '3.00');
    expect(journal.get(clientOrderId)?.state).toMatch(/unknown|acknowledged|final/);
    const retry = await service.refund({
      profileId,
      orderid: orderId,
      clientOrderId,
      amount: '3.00',
      reason: 'Damaged',
    });
    expect(retry.replayed).toBe(true);
    expect(await service.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(sandboxCount('reversal')).toBe(1);
  });
});

describe('an action id stands for one request', () => {
  it('a retry with another amount is refused: the retry sends exactly what was confirmed', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    const { clientOrderId } = service.openAction();
    await refundWithLostAnswer(orderId, clientOrderId, '3.00');
    await expect(
      service.refund({
        profileId,
        orderid: orderId,
        clientOrderId,
        amount: '4.00',
        reason: 'Damaged',
      }),
    ).rejects.toThrow(/sent for 3.00 EUR; a retry sends exactly that/);
    await service.settled(clientOrderId);
    expect(sandboxCount('reversal')).toBe(1);
  });
});

describe('capture, cancel and void', () => {
  it('partial capture of a preauth, then the rest is what is left', async () => {
    const orderId = await approvedOrder(direct, 'PREAUTH', '30.00');
    const view = await service.lookup(profileId, { orderid: orderId });
    expect(view.actions).toMatchObject({
      capture: { allowed: true, max: '30.00' },
      refund: { allowed: false },
      void: { allowed: false },
      cancel: { allowed: true },
    });
    const { clientOrderId } = service.openAction();
    await service.capture({ profileId, orderid: orderId, clientOrderId, amount: '12.50' });
    expect(await service.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    const after = await service.lookup(profileId, { orderid: orderId });
    expect(after).toMatchObject({ captured: '12.50', remainingCapturable: '17.50' });
    expect(after.captures).toEqual([
      expect.objectContaining({ amount: '12.50', status: 'approved' }),
    ]);
    await expect(
      service.capture({
        profileId,
        orderid: orderId,
        clientOrderId: service.openAction().clientOrderId,
        amount: '17.51',
      }),
    ).rejects.toThrow(/more than what is left, 17.50 EUR/);
  });

  it('voids an approved sale once', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '8.00');
    const { clientOrderId } = service.openAction();
    await service.void({ profileId, orderid: orderId, clientOrderId, reason: 'Duplicate order' });
    expect(await service.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
      operation: 'VOID',
    });
    const after = await service.lookup(profileId, { orderid: orderId });
    expect(after.remainingRefundable).toBe('0.00');
    expect(after.actions.void).toMatchObject({ allowed: false });
    expect(after.actions.refund).toMatchObject({ allowed: false });
    expect(after.actions.refund.reason).toMatch(/voided/);
  });
});

describe('start after a crash', () => {
  it('reconciles an entry left in flight by status, without a second request', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    // A process that dies before it asks: its follow-up would come only after the crash, so
    // however long this machine takes to get to the restart, the entry is still in flight then.
    await service.close();
    service = await newService(undefined, { delayAfter: () => 60_000, giveUpAfterMs: 120_000 });
    const { clientOrderId } = service.openAction();
    await refundWithLostAnswer(orderId, clientOrderId, '1.00');
    await service.close();
    // A new start: a new service on the same database.
    service = await newService();
    await new Promise((r) => setTimeout(r, 100));
    const results = await service.reconcile();
    expect(results.map((e) => e.clientOrderId)).toContain(clientOrderId);
    await service.settled(clientOrderId);
    expect(journal.get(clientOrderId)).toMatchObject({ state: 'final', status: 'approved' });
    expect(sandboxCount('reversal')).toBe(1);
  });
});

// The write-ahead entry is synced to disk off the main thread (store/durability.ts WalSync): the
// refund leaves only after that fsync; when it fails nothing leaves and the entry says so.
describe('the write-ahead entry on disk', () => {
  it('sends the refund only after its entry is synced to disk', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    const synced: { at: number; returnsThen: number }[] = [];
    await service.close();
    const orders = (service = await newService(async (path) => {
      await syncFile(path);
      synced.push({ at: synced.length, returnsThen: sandboxCount('reversal') });
    }));
    const { clientOrderId } = orders.openAction();
    const refund = await orders.refund({
      profileId,
      orderid: orderId,
      clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    });
    expect(refund.entry.state).not.toBe('refused');
    expect(synced).toEqual([{ at: 0, returnsThen: 0 }]);
    expect(sandboxCount('reversal')).toBe(1);
  });

  it('syncs a refund alone on this thread before it leaves; refunds at once share a sync', async () => {
    const orderIds = await Promise.all(
      ['10.00', '11.00', '12.00', '13.00', '14.00'].map((a) => approvedOrder(direct, 'SALE', a)),
    );
    const pooled: number[] = [];
    const now: number[] = [];
    await service.close();
    const orders = (service = await newService(
      async (path) => {
        await syncFile(path);
        pooled.push(sandboxCount('reversal'));
      },
      fast,
      (path) => {
        syncFileNow(path);
        now.push(sandboxCount('reversal'));
      },
    ));
    const refund = (orderid: string) =>
      orders.refund({
        profileId,
        orderid,
        clientOrderId: orders.openAction().clientOrderId,
        amount: '1.00',
        reason: 'Damaged',
      });
    // Alone: synced on this thread, before its refund reached the gateway.
    await refund(orderIds[0] ?? '');
    expect(now).toEqual([0]);
    expect(pooled).toEqual([]);
    // Four at once: none of them alone, so each waits for a sync on the pool before it leaves
    // (the gateway holds each refund a while, so none ends before the last is decided).
    sandbox.misbehave({ latencyMs: 300, operations: ['RETURN'] });
    const four = await Promise.all(orderIds.slice(1).map(refund));
    expect(four.map((r) => r.entry.state)).not.toContain('refused');
    expect(now).toEqual([0]);
    expect(pooled.length).toBeGreaterThan(0);
    expect(pooled.length).toBeLessThanOrEqual(4);
    expect(pooled[0]).toBe(1);
    expect(sandboxCount('reversal')).toBe(5);
  });

  it('sends nothing when the disk refuses the sync of a refund alone, and says it was not sent', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    await service.close();
    const orders = (service = await newService(undefined, fast, () => {
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    }));
    const { clientOrderId } = orders.openAction();
    await expect(
      orders.refund({
        profileId,
        orderid: orderId,
        clientOrderId,
        amount: '4.00',
        reason: 'Damaged',
      }),
    ).rejects.toMatchObject({
      code: 'IO',
      message: expect.stringMatching(/could not be synced to disk: EIO/) as string,
    });
    expect(sandboxCount('reversal')).toBe(0);
    expect(journal.get(clientOrderId)).toMatchObject({ state: 'refused', errorCode: 'NOT_SENT' });
  });

  it('sends nothing when the disk refuses the sync, and the entry says it was not sent', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.00');
    await service.close();
    const orders = (service = await newService(() =>
      Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })),
    ));
    const { clientOrderId } = orders.openAction();
    await expect(
      orders.refund({
        profileId,
        orderid: orderId,
        clientOrderId,
        amount: '4.00',
        reason: 'Damaged',
      }),
    ).rejects.toMatchObject({
      code: 'IO',
      message: expect.stringMatching(/disk error .*could not be synced to disk: EIO/) as string,
    });
    expect(sandboxCount('reversal')).toBe(0);
    expect(journal.get(clientOrderId)).toMatchObject({
      state: 'refused',
      errorCode: 'NOT_SENT',
    });
    // The same action again: recorded as not sent, so still nothing leaves.
    const again = await orders.refund({
      profileId,
      orderid: orderId,
      clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    });
    expect(again).toMatchObject({ replayed: true, entry: { state: 'refused' } });
    expect(sandboxCount('reversal')).toBe(0);
  });
});
