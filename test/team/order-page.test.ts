// An order's page on both journal stores (the desk's SQLite, a team's PostgreSQL on a throw-away
// cluster), against a sandbox that forgives nothing: what the gateway said is left shows with
// the time it said it, a refund made elsewhere stays unknown until then, and the timeline lists
// Paydesk's own refunds with their outcome and an entry whose answer was lost as unknown.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import type { OrderView, TimelineItem } from '../../main/services/orders/view';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import {
  postgresStore,
  sqliteStore,
  type ServiceDesk,
  type ServiceStore,
} from '../support/service-stores';
import { CONTROL_KEY } from '../support/samples';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';

const withPostgres = postgresForTests('the order page on PostgreSQL');
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

const gateway = () => ({ baseUrl: sandbox.baseUrl, controlKey: CONTROL_KEY });
const shop = () => shopClient(sandbox, CONTROL_KEY);
const sale = (amount: string) => approvedOrder(shop(), 'SALE', amount);

/** A refund made at the gateway behind Paydesk's back (the shop's own system), waited for. */
async function refundElsewhere(orderid: string, amount: string): Promise<void> {
  const ack = await shop().call('RETURN', {
    client_orderid: `elsewhere-${Math.random().toString(36).slice(2)}`,
    orderid,
    amount,
    currency: 'EUR',
    comment: 'Refunded in the shop',
  });
  for (let i = 0; i < 200; i++) {
    const status = await shop().status({ orderid: ack.orderId ?? '' });
    if (status.status === 'approved') return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the refund made elsewhere did not become approved');
}

const entries = (view: OrderView) =>
  view.timeline.filter((i): i is Extract<TimelineItem, { kind: 'entry' }> => i.kind === 'entry');
const said = (view: OrderView) =>
  view.timeline.filter((i): i is Extract<TimelineItem, { kind: 'said' }> => i.kind === 'said');

describe.each([
  { kind: 'sqlite' as const, skip: false },
  { kind: 'postgres' as const, skip: !withPostgres },
])('the order page on $kind', ({ kind, skip }) => {
  let store: ServiceStore;
  let desk: ServiceDesk;

  beforeAll(async () => {
    if (skip) return;
    store =
      kind === 'sqlite'
        ? sqliteStore(gateway())
        : await postgresStore(cluster as PgCluster, 'order_page', gateway());
    desk = await store.desk({ person: 'ann', desk: 'Front-1' });
  });
  afterAll(async () => {
    sandbox.misbehave(FORGIVE_NOTHING);
    await store?.close();
  });

  const look = (orderid: string) => desk.orders.lookup(store.profileId, { orderid });
  const refund = (orderid: string, amount: string) => {
    const { clientOrderId } = desk.orders.openAction();
    const sent = desk.orders.refund({
      profileId: store.profileId,
      orderid,
      clientOrderId,
      amount,
      reason: 'Returned goods',
    });
    return { clientOrderId, sent };
  };

  it.skipIf(skip)(
    'a refund made elsewhere is unknown until the gateway names what is left; then the figure shows with its time',
    async () => {
      const saleId = await sale('49.90');
      await refundElsewhere(saleId, '19.90');

      const before = await look(saleId);
      expect(before).toMatchObject({
        state: 'partly-refunded',
        refundedAtLeast: true,
        remainingRefundable: null,
        remainingRefundableSaid: null,
        email: 'john@example.com',
        created: { source: 'not-given', at: null, by: null },
      });
      expect(before.timeline.map((i) => i.kind)).toEqual(['elsewhere', 'read']);
      expect(before.timeline[0]).toMatchObject({ of: 'refund', text: /how much and when/ });

      // The whole amount: the gateway refuses and names what is really left.
      const tooMuch = refund(saleId, '49.90');
      await expect(tooMuch.sent).rejects.toThrow(/above what is left to return, 30\.00 EUR/);
      const refusal = await desk.port.get(tooMuch.clientOrderId);
      const saidAt = refusal!.finalAt ?? refusal!.updatedAt;

      const after = await look(saleId);
      expect(after).toMatchObject({
        remainingRefundable: '30.00',
        remainingRefundableSaid: { amount: '30.00', at: saidAt, since: null },
        refunded: '19.90',
        // As of the refusal: a refund elsewhere since would not be in it.
        refundedAtLeast: true,
        actions: { refund: { allowed: true, max: '30.00' } },
      });
      expect(said(after)).toEqual([
        {
          kind: 'said',
          at: saidAt,
          of: 'refund',
          amount: '30.00',
          clientOrderId: tooMuch.clientOrderId,
        },
      ]);
      expect(entries(after)[0]).toMatchObject({
        role: 'acted',
        outcome: 'refused',
        outcomeText: /^Refused by the gateway: .*30\.00 EUR/,
        entry: { clientOrderId: tooMuch.clientOrderId, operator: 'ann', amount: '49.90' },
      });

      // A refund of ours since: what is left is the gateway's figure less it, still with its time.
      const ours = refund(saleId, '10.00');
      await ours.sent;
      expect(await desk.orders.settled(ours.clientOrderId)).toMatchObject({ status: 'approved' });
      const later = await look(saleId);
      expect(later).toMatchObject({
        remainingRefundable: '20.00',
        remainingRefundableSaid: { amount: '30.00', at: saidAt, since: '10.00' },
        refunded: '29.90',
      });
      // The gateway agrees: 20.01 is refused before anything is sent.
      const over = refund(saleId, '20.01');
      await expect(over.sent).rejects.toThrow(/more than what is left, 20\.00 EUR/);
    },
    30_000,
  );

  it.skipIf(skip)(
    'the timeline lists a refund by Paydesk with who, amount, reason and outcome, in time order',
    async () => {
      const saleId = await sale('25.00');
      const first = refund(saleId, '5.00');
      await first.sent;
      await desk.orders.settled(first.clientOrderId);

      const view = await look(saleId);
      expect(view.timeline.map((i) => i.kind)).toEqual(['entry', 'read']);
      expect(entries(view)).toMatchObject([
        {
          role: 'acted',
          outcome: 'approved',
          outcomeText: 'Approved by the gateway.',
          entry: {
            clientOrderId: first.clientOrderId,
            operator: 'ann',
            actionLabel: 'Partial refund',
            amount: '5.00',
            currency: 'EUR',
            reason: 'Returned goods',
            state: 'final',
            status: 'approved',
          },
        },
      ]);
      expect(view.timeline.at(-1)).toMatchObject({
        kind: 'read',
        status: 'approved',
        stateLabel: 'Partly refunded',
        orderStage: 'sale_partially_reversed',
        at: view.readAt,
      });
      expect(Date.parse(view.readAt)).toBeGreaterThanOrEqual(Date.parse(entries(view)[0]!.at));
      // The remaining figure is the journal's own: nobody else refunded, the gateway named nothing.
      expect(view).toMatchObject({ remainingRefundable: '20.00', remainingRefundableSaid: null });
    },
    30_000,
  );

  it.skipIf(skip)('an entry whose answer was lost is on the timeline as unknown', async () => {
    const saleId = await sale('12.00');
    sandbox.misbehave({
      ...FORGIVE_NOTHING,
      // Longer than the test looks: the gateway shows no record of it meanwhile.
      visibilityDelayMs: 20_000,
      dropAnswerShare: 1,
      operations: ['RETURN'],
    });
    try {
      const lost = refund(saleId, '2.00');
      await expect(lost.sent).rejects.toThrow();
      const view = await look(saleId);
      expect(entries(view)).toMatchObject([
        {
          outcome: 'unknown',
          outcomeText: /^Unknown: the answer was lost/,
          entry: { clientOrderId: lost.clientOrderId, state: 'unknown' },
        },
      ]);
      // Unknown is never "nothing was sent", and it holds the order: no second refund now.
      expect(JSON.stringify(view.timeline)).not.toMatch(/Nothing was sent/);
      expect(view.actions.refund).toMatchObject({ allowed: false, reason: /still pending/ });
    } finally {
      sandbox.misbehave(FORGIVE_NOTHING);
    }
  });
});
