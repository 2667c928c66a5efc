// Card references, card info, rebill and recurring setup through the one action path, against
// the sandbox over real HTTP with a gateway that forgives nothing (noDedupe).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TransportError } from '../../main/gateway/errors';
import type { RequestOperation } from '../../main/gateway/operations';
import { previewSchedule } from '../../main/services/recurring';
import { openDesk, type Desk } from '../support/desk';
import { approvedOrder } from '../support/shop';

let desk: Desk;

beforeEach(async () => {
  desk = await openDesk();
  desk.sandbox.misbehave({ noDedupe: true });
});
afterEach(() => desk.close());

const action = () => desk.path.openAction().clientOrderId;

async function withLostAnswer(operation: RequestOperation, send: () => Promise<unknown>) {
  desk.sandbox.misbehave({ noDedupe: true, dropAnswerShare: 1, operations: [operation] });
  await expect(send()).rejects.toThrow(TransportError);
  desk.sandbox.misbehave({ noDedupe: true });
}

describe('card references', () => {
  it('saves the card of an approved order (v4 with the RSA key) and reads it back', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '10.00');
    const { entry } = await desk.cards.saveCard({
      profileId: desk.profileId,
      clientOrderId: action(),
      orderid,
    });
    expect(entry).toMatchObject({ operation: 'CARDREF_V4', state: 'final', status: 'approved' });
    const ref = entry.result['card-ref-id'];
    expect(ref).toMatch(/^\d+$/);
    expect(desk.sandbox.cardRefs('1111')).toEqual([{ id: ref, sourceOrderId: orderid }]);

    const info = await desk.cards.info(desk.profileId, ref ?? '');
    expect(info).toMatchObject({
      cardRefId: ref,
      brand: 'VISA',
      bin: '444455',
      masked: '444455******1111',
      expMonth: '12',
      expYear: '2030',
      expired: false,
    });
    // Saving it again is refused with the reference it already has.
    await expect(
      desk.cards.saveCard({ profileId: desk.profileId, clientOrderId: action(), orderid }),
    ).rejects.toThrow(`already saved as card reference ${ref}`);
  });

  it('a profile without RSA key saves with v2 CARDREF', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '10.00');
    const { entry } = await desk.cards.saveCard({
      profileId: desk.profileWithoutKey,
      clientOrderId: action(),
      orderid,
    });
    expect(entry).toMatchObject({ operation: 'CARDREF', state: 'final' });
  });

  it('a lost answer is settled by the order status: one card reference, its id in the journal', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '10.00');
    const request = { profileId: desk.profileId, clientOrderId: action(), orderid };
    await withLostAnswer('CARDREF_V4', () => desk.cards.saveCard(request));
    const retry = await desk.cards.saveCard(request);
    expect(retry).toMatchObject({ replayed: true, entry: { state: 'final', status: 'approved' } });
    expect(desk.sandbox.cardRefs('1111')).toHaveLength(1);
    expect(retry.entry.result['card-ref-id']).toBe(desk.sandbox.cardRefs('1111')[0]?.id);
  });

  it('says an expired card has expired', async () => {
    const now = () => new Date('2031-02-01T00:00:00Z');
    const later = await import('../support/desk').then((m) => m.openDesk(now));
    try {
      const orderid = await approvedOrder(later.direct, 'SALE', '1.00');
      const { entry } = await later.cards.saveCard({
        profileId: later.profileId,
        clientOrderId: later.path.openAction().clientOrderId,
        orderid,
      });
      const info = await later.cards.info(later.profileId, entry.result['card-ref-id'] ?? '');
      expect(info.expired).toBe(true);
    } finally {
      await later.close();
    }
  });
});

describe('rebill', () => {
  it('charges a card reference, followed to approved; then it is an order that can be refunded', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '10.00');
    const saved = await desk.cards.saveCard({
      profileId: desk.profileId,
      clientOrderId: action(),
      orderid,
    });
    const request = {
      profileId: desk.profileId,
      clientOrderId: action(),
      cardRefId: saved.entry.result['card-ref-id'] ?? '',
      amount: '7.50',
      currency: 'EUR',
      description: 'Minibar, room 12',
    };
    await desk.cards.rebill(request);
    const final = await desk.path.settled(request.clientOrderId);
    expect(final).toMatchObject({ state: 'final', status: 'approved', amountMinor: 750n });
    const view = await desk.orders.lookup(desk.profileId, { orderid: final?.orderId ?? '' });
    expect(view).toMatchObject({
      transactionType: 'rebill',
      actions: { refund: { allowed: true, max: '7.50' } },
    });
  });

  it('a lost answer: one rebill at the gateway, settled by status, and a retry sends nothing', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '10.00');
    const saved = await desk.cards.saveCard({
      profileId: desk.profileId,
      clientOrderId: action(),
      orderid,
    });
    const request = {
      profileId: desk.profileId,
      clientOrderId: action(),
      cardRefId: saved.entry.result['card-ref-id'] ?? '',
      amount: '7.50',
      currency: 'EUR',
      description: 'Minibar, room 12',
    };
    await withLostAnswer('REBILL', () => desk.cards.rebill(request));
    expect((await desk.cards.rebill(request)).replayed).toBe(true);
    expect(await desk.path.settled(request.clientOrderId)).toMatchObject({ status: 'approved' });
    expect(desk.sandbox.orders('1111').filter((o) => o.kind === 'rebill')).toHaveLength(1);
  });
});

describe('recurring setup', () => {
  const monthly = {
    amount: '9.99',
    currency: 'EUR',
    period: 'month',
    interval: '1',
    startDate: '2031-01-31',
    repeats: '12',
  };

  it('previews monthly charges keeping the day of the month, clamped at month ends', () => {
    const preview = previewSchedule(monthly, new Date('2030-12-01T10:00:00Z'));
    expect(preview.charges.map((c) => c.date)).toEqual([
      '2031-01-31',
      '2031-02-28',
      '2031-03-31',
      '2031-04-30',
      '2031-05-31',
      '2031-06-30',
    ]);
    expect(preview.summary).toBe(
      'Every month on day 31 (the last day in shorter months), 12 charges, starting 2031-01-31.',
    );
  });

  it('refuses bad combinations with a sentence that says what to change', () => {
    const now = new Date('2030-12-01T10:00:00Z');
    expect(() => previewSchedule({ ...monthly, interval: '0' }, now)).toThrow(
      /a whole number, 1 or more \(0 would charge again and again at once\)/,
    );
    expect(() => previewSchedule({ ...monthly, startDate: '2030-11-30' }, now)).toThrow(
      'The start date 2030-11-30 is in the past; choose today (2030-12-01) or a later day.',
    );
    expect(() => previewSchedule({ ...monthly, period: 'year' }, now)).toThrow(
      'The gateway knows the periods day, week and month; choose one of them instead of "year".',
    );
  });

  it('creates a subscription on an order (saving its card first); the gateway charges on the previewed dates', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '9.99');
    const request = {
      profileId: desk.profileId,
      clientOrderId: action(),
      orderid,
      ...monthly,
      email: 'anna@example.com',
      firstName: 'Anna',
      lastName: 'Berg',
      description: 'Magazine subscription',
    };
    const preview = desk.recurring.preview(monthly);
    const created = await desk.recurring.create(request);
    expect(created.entry).toMatchObject({
      operation: 'CREATE_RP_V4',
      state: 'final',
      status: 'approved',
    });
    const [plan] = desk.sandbox.subscriptions('1111');
    expect(created.entry.result['recurring-payment-id']).toBe(plan?.id);
    expect(created.cardRefId).toBe(plan?.cardRefId);
    // The sandbox's own schedule walks the preview's dates, one after another.
    for (const charge of preview.charges.slice(0, 4)) {
      const current = desk.sandbox.subscriptions('1111')[0];
      expect(new Date(current?.nextDueAt ?? 0).toISOString().slice(0, 10)).toBe(charge.date);
      desk.sandbox.clock.set(Date.parse(`${charge.date}T01:00:00Z`));
    }
  });

  it('a lost answer stays unsettled (the gateway has no status for it); nothing is sent again; a person settles it', async () => {
    const orderid = await approvedOrder(desk.direct, 'SALE', '9.99');
    const saved = await desk.cards.saveCard({
      profileId: desk.profileId,
      clientOrderId: action(),
      orderid,
    });
    const request = {
      profileId: desk.profileId,
      clientOrderId: action(),
      cardRefId: saved.entry.result['card-ref-id'] ?? '',
      ...monthly,
      description: 'Magazine subscription',
    };
    await withLostAnswer('CREATE_RP_V4', () => desk.recurring.create(request));
    expect(desk.journal.get(request.clientOrderId)?.state).toBe('unknown');
    await expect(desk.recurring.create(request)).rejects.toThrow(
      /offers no way to ask about it\. Paydesk sends nothing again/,
    );
    expect(desk.sandbox.subscriptions('1111')).toHaveLength(1);
    const settled = await desk.path.settleByHand(
      request.clientOrderId,
      'approved',
      'The operator confirmed subscription exists',
    );
    expect(settled).toMatchObject({ state: 'final', status: 'approved', settledBy: 'ann' });
  });

  it('a profile without RSA key is told to go to Keys', async () => {
    await expect(
      desk.recurring.create({
        profileId: desk.profileWithoutKey,
        clientOrderId: action(),
        cardRefId: '7770001',
        ...monthly,
        description: 'x',
      }),
    ).rejects.toThrow(/Subscriptions are signed with the profile’s RSA key.*Open Keys/);
  });
});
