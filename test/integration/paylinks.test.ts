// Pay-by-link through the one action path, and the 3-D Secure address an order waiting for it
// shows; against the sandbox over real HTTP, its hosted page paid the way a customer pays it.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isOpenLink } from '../../common/journal-actions';
import { TransportError } from '../../main/gateway/errors';
import type { PayLinkRequest } from '../../main/services/paylinks';
import { openDesk, type Desk } from '../support/desk';
import { PHONE_ORDER_LINK, TEST_CARD } from '../support/samples';

let desk: Desk;

beforeEach(async () => {
  desk = await openDesk();
  desk.sandbox.misbehave({ noDedupe: true });
});
afterEach(() => desk.close());

function link(patch: Partial<PayLinkRequest> = {}): PayLinkRequest {
  return {
    profileId: desk.profileId,
    clientOrderId: desk.path.openAction().clientOrderId,
    ...PHONE_ORDER_LINK,
    ...patch,
  };
}

/** The customer opens the link and pays with a test card. */
async function customerPays(url: string): Promise<void> {
  const { cvv2, ...card } = TEST_CARD;
  const answer = await fetch(url, {
    method: 'POST',
    body: new URLSearchParams({ ...card, cvv2 }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
}

describe('pay-by-link', () => {
  it('makes a link, lists it open, and shows it paid once the customer pays: an order like the others', async () => {
    const request = link();
    const { entry } = await desk.payLinks.create(request);
    const url = entry.result['redirect-url'] ?? '';
    expect(url).toMatch(/\/sandbox\/form\//);
    expect(await desk.payLinks.list(desk.profileId)).toEqual([
      expect.objectContaining({
        clientOrderId: request.clientOrderId,
        state: 'open',
        url,
        amount: '42.00',
        email: 'anna@example.com',
        createdBy: 'ann',
      }),
    ]);
    // An open link moves no money: it is not pending, and stays its own state until paid.
    const open = await desk.port.get(request.clientOrderId);
    expect(open).toMatchObject({ state: 'acknowledged', operation: 'SALEFORM' });
    expect(isOpenLink(open!)).toBe(true);
    expect((await desk.port.search({ pending: true })).total).toBe(0);
    await customerPays(url);
    const final = await desk.path.settled(request.clientOrderId);
    expect(final).toMatchObject({ state: 'final', status: 'approved' });
    expect((await desk.payLinks.list(desk.profileId))[0]?.state).toBe('paid');
    const order = await desk.orders.lookup(desk.profileId, { orderid: final?.orderId ?? '' });
    expect(order.actions.refund).toMatchObject({ allowed: true, max: '42.00' });
  });

  it('a hold link uses PREAUTHFORM', async () => {
    const { entry } = await desk.payLinks.create(link({ kind: 'preauth' }));
    expect(entry.operation).toBe('PREAUTHFORM');
  });

  it('a lost answer: one order at the gateway, and the link is learnt from its status', async () => {
    const request = link();
    desk.sandbox.misbehave({ noDedupe: true, dropAnswerShare: 1, operations: ['SALEFORM'] });
    await expect(desk.payLinks.create(request)).rejects.toThrow(TransportError);
    desk.sandbox.misbehave({ noDedupe: true });
    const retry = await desk.payLinks.create(request);
    expect(retry.replayed).toBe(true);
    expect(retry.entry.state).toBe('acknowledged');
    expect(retry.entry.result['redirect-url']).toMatch(/\/sandbox\/form\//);
    expect(
      desk.sandbox.orders('1111').filter((o) => o.clientOrderId === request.clientOrderId),
    ).toHaveLength(1);
    expect((await desk.payLinks.list(desk.profileId))[0]?.state).toBe('open');
  });

  it('refuses a link without a customer e-mail, saying what to write', async () => {
    await expect(desk.payLinks.create(link({ email: 'anna' }))).rejects.toThrow(
      /customer’s e-mail address/,
    );
    expect(desk.journal.search().total).toBe(0);
  });
});

describe('3-D Secure waiting', () => {
  it('an order waiting for 3-D Secure shows the address the customer must open', async () => {
    const ack = await desk.direct.call('SALE', {
      client_orderid: 'shop-3ds-1',
      amount: '12.00',
      currency: 'EUR',
      email: 'anna@example.com',
      redirect_url: 'https://shop.example/back',
      ...TEST_CARD,
      cvv2: '321',
    });
    const view = await desk.orders.lookup(desk.profileId, { orderid: ack.orderId ?? '' });
    expect(view.threeDsPending).toBe(true);
    expect(view.threeDsAddress).toMatch(/\/sandbox\/acs\//);
  });
});
