// The same service tests on both journal stores: the desk's SQLite and a team's PostgreSQL (a
// throw-away cluster, a finance login over TCP). The services do not know which one they run on;
// what a clerk or the gateway would notice must be the same: a lost answer settled by `status`
// and never sent again, the rules and figures of captures, voids and refunds, a payout, the
// reconciliation at start, and a batch of a few rows. The sandbox forgives nothing (noDedupe):
// a request sent twice would be counted twice.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { contentText } from '../../main/files';
import { formatMinor } from '../../main/gateway/amount';
import type { Sandbox } from '../../main/sandbox';
import { ServiceError } from '../../main/services/errors';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import {
  postgresStore,
  sqliteStore,
  type ServiceDesk,
  type ServiceStore,
} from '../support/service-stores';
import { CARD_PAYOUT, CONTROL_KEY } from '../support/samples';
import { approvedOrder, SHOP, shopClient, startShopSandbox } from '../support/shop';

const withPostgres = postgresForTests('the service tests on PostgreSQL');
const FORGIVE_NOTHING = { noDedupe: true };

let sandbox: Sandbox;
let cluster: PgCluster | undefined;

beforeAll(async () => {
  sandbox = await startShopSandbox(CONTROL_KEY, { forgiveNothing: true });
  if (withPostgres) cluster = await startCluster();
});

afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

/** What the sandbox recorded acting on an order (captures, refunds, voids), every one. */
const actsOn = (orderId: string, kind?: string) =>
  sandbox
    .orders(SHOP.endpointId)
    .filter((o) => o.parentOrderId === orderId && (kind === undefined || o.kind === kind));
const sale = (amount: string) => approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', amount);
const gateway = () => ({ baseUrl: sandbox.baseUrl, controlKey: CONTROL_KEY });

describe.each([
  { kind: 'sqlite' as const, skip: false },
  { kind: 'postgres' as const, skip: !withPostgres },
])('services on $kind', ({ kind, skip }) => {
  let store: ServiceStore;
  let desk: ServiceDesk;

  beforeAll(async () => {
    if (skip) return;
    store =
      kind === 'sqlite'
        ? sqliteStore(gateway())
        : await postgresStore(cluster as PgCluster, 'services_both', gateway());
    desk = await store.desk({ person: 'ann', desk: 'Front-1' });
  });
  afterAll(async () => {
    sandbox.misbehave(FORGIVE_NOTHING);
    await store?.close();
  });

  const refund = (orderid: string, clientOrderId: string, amount?: string) => ({
    profileId: store.profileId,
    orderid,
    clientOrderId,
    reason: 'Damaged',
    ...(amount ? { amount } : {}),
  });

  it.skipIf(skip)(
    'a refund whose answer is lost is settled by status: one refund at the gateway, counted once',
    async () => {
      const saleId = await sale('10.00');
      sandbox.misbehave({
        ...FORGIVE_NOTHING,
        // Longer than this machine may take between the lost answer and the check below: the
        // background follow-up meanwhile hears "no record", so the entry stays unknown.
        visibilityDelayMs: 1_500,
        dropAnswerShare: 1,
        operations: ['RETURN'],
      });
      const { clientOrderId } = desk.orders.openAction();
      await expect(desk.orders.refund(refund(saleId, clientOrderId, '4.00'))).rejects.toThrow();
      expect((await desk.port.get(clientOrderId))?.state).toBe('unknown');
      // The clerk tries again with the same action: never sent again, asked about instead.
      await desk.orders.refund(refund(saleId, clientOrderId, '4.00')).catch(() => undefined);
      sandbox.misbehave(FORGIVE_NOTHING);
      expect(await desk.orders.settled(clientOrderId)).toMatchObject({
        state: 'final',
        status: 'approved',
      });
      expect(actsOn(saleId, 'reversal')).toHaveLength(1);
      const view = await desk.orders.lookup(store.profileId, { orderid: saleId });
      expect(view).toMatchObject({ refunded: '4.00', remainingRefundable: '6.00' });
      const detail = await desk.journal.entry(clientOrderId);
      expect(detail.history.map((h) => h.state)).toEqual([
        'sending',
        'unknown',
        'acknowledged',
        'final',
      ]);
    },
    30_000,
  );

  it.skipIf(skip)(
    'captures, voids and refunds follow the rules, and the figures count them',
    async () => {
      const saleId = await sale('10.00');
      const first = desk.orders.openAction().clientOrderId;
      await desk.orders.refund(refund(saleId, first, '7.00'));
      expect(await desk.orders.settled(first)).toMatchObject({ status: 'approved' });
      const tooMuch = desk.orders.refund(
        refund(saleId, desk.orders.openAction().clientOrderId, '4.00'),
      );
      await expect(tooMuch).rejects.toMatchObject({ code: 'AMOUNT' });
      await expect(tooMuch).rejects.toThrow(/more than what is left, 3\.00 EUR/);
      const voidIt = desk.orders.void({
        ...refund(saleId, desk.orders.openAction().clientOrderId),
        reason: 'Mistake',
      });
      await expect(voidIt).rejects.toThrow(/has refunds; it can no longer be voided/);
      const view = await desk.orders.lookup(store.profileId, { orderid: saleId });
      expect(view).toMatchObject({ refunded: '7.00', remainingRefundable: '3.00' });
      expect(actsOn(saleId)).toHaveLength(1);

      const holdId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'PREAUTH', '10.00');
      const capture = desk.orders.openAction().clientOrderId;
      await desk.orders.capture({
        profileId: store.profileId,
        orderid: holdId,
        clientOrderId: capture,
        amount: '6.00',
      });
      expect(await desk.orders.settled(capture)).toMatchObject({ status: 'approved' });
      const again = desk.orders.capture({
        profileId: store.profileId,
        orderid: holdId,
        clientOrderId: desk.orders.openAction().clientOrderId,
        amount: '5.00',
      });
      await expect(again).rejects.toBeInstanceOf(ServiceError);
      expect((await desk.orders.lookup(store.profileId, { orderid: holdId })).captured).toBe(
        '6.00',
      );
      expect(actsOn(holdId)).toHaveLength(1);
    },
    30_000,
  );

  it.skipIf(skip)(
    'a payout is journaled before it leaves, sent once, the card masked',
    async () => {
      const clientOrderId = desk.path.openAction().clientOrderId;
      await desk.payouts.send({
        profileId: store.profileId,
        clientOrderId,
        ...CARD_PAYOUT,
      });
      const final = await desk.path.settled(clientOrderId);
      expect(final).toMatchObject({ state: 'final', status: 'approved', amountMinor: 2510n });
      expect(JSON.stringify((await desk.port.get(clientOrderId))?.summary)).not.toContain(
        '4444555566661111',
      );
      expect(
        sandbox.orders(SHOP.endpointId).filter((o) => o.clientOrderId === clientOrderId),
      ).toHaveLength(1);
    },
    30_000,
  );

  it.skipIf(skip)(
    'a refund left in flight by a desk that stopped is settled by the next start, not sent again',
    async () => {
      const saleId = await sale('10.00');
      const gone = await store.desk({ person: 'ann', desk: 'Front-2' });
      sandbox.misbehave({
        ...FORGIVE_NOTHING,
        visibilityDelayMs: 300,
        dropAnswerShare: 1,
        operations: ['RETURN'],
      });
      const { clientOrderId } = gone.orders.openAction();
      await expect(gone.orders.refund(refund(saleId, clientOrderId))).rejects.toThrow();
      await gone.close(); // quits: its follow-up stops, the entry stays unsettled
      sandbox.misbehave(FORGIVE_NOTHING);
      expect((await desk.port.get(clientOrderId))?.state).toBe('unknown');

      const next = await store.desk({ person: 'bob', desk: 'Back-1' });
      const reconciled = await next.orders.reconcile();
      expect(reconciled.map((e) => e.clientOrderId)).toContain(clientOrderId);
      expect(await next.orders.settled(clientOrderId)).toMatchObject({
        state: 'final',
        status: 'approved',
      });
      expect(actsOn(saleId, 'reversal')).toHaveLength(1);
      // Fully refunded, whichever desk looks.
      const view = await next.orders.lookup(store.profileId, { orderid: saleId });
      expect(view).toMatchObject({ refunded: '10.00', remainingRefundable: '0.00' });
    },
    30_000,
  );

  it.skipIf(skip)(
    'a batch of a few rows: each sent once, the result read from the journal',
    async () => {
      const orders = await Promise.all([sale('10.00'), sale('10.00'), sale('5.00')]);
      const csv = [
        'operation,orderid,amount,currency,reason,note',
        ...orders.map((id, i) => `refund,${id},${formatMinor(BigInt(100 + i * 100))},EUR,Damaged,`),
      ].join('\n');
      const { batch } = await desk.batches.load(store.profileId, 'few.csv', csv, 2);
      desk.batches.start(batch.id);
      await desk.batches.idle(batch.id);
      expect(desk.batches.get(batch.id)).toMatchObject({
        state: 'done',
        progress: { done: 3, failed: 0, left: 0 },
      });
      for (const id of orders) expect(actsOn(id, 'reversal')).toHaveLength(1);
      const result = (await desk.batches.resultCsv(batch.id)).trim().split('\r\n').slice(1);
      expect(result).toHaveLength(3);
      for (const line of result) expect(line).toMatch(/,approved,$/);
      const journal = await desk.journal.search({ orderRef: orders[2] }, 0, 10);
      expect(journal.rows).toMatchObject([{ amount: '3.00', status: 'approved', operator: 'ann' }]);
      // The export reads the same journal: a header, then one line per entry, newest first.
      const progress: { done: number; total: number }[] = [];
      // As the save handler writes it (chunks are text, or UTF-8 bytes on SQLite).
      const exported = await contentText(() =>
        desk.journal.csvChunks({ orderRef: orders[2] }, (p) => progress.push(p)),
      );
      const lines = exported.trim().split('\r\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(orders[2]);
      expect(lines[1]).toContain('3.00');
      expect(progress.at(-1)).toEqual({ done: 1, total: 1 });
    },
    30_000,
  );
});
