// An order looked up while the journal cannot be read (a team's database away): the gateway's
// answer is shown, but nothing Paydesk could only know from its journal is guessed, least of
// all that refunds were made outside Paydesk. And the card on screen asks again by itself, so
// it stops saying "cannot be read" once the journal is back.

import { describe, expect, it } from 'vitest';

import type { StatusResponse } from '../../../main/gateway/response';
import { orderView } from '../../../main/services/orders/view';
import { orderRefreshInterval } from '../../../renderer/src/screens/orders/hooks';

const partlyRefunded = {
  type: 'status-response',
  status: 'approved',
  transactionType: 'sale',
  amount: '49.90',
  currency: 'EUR',
  orderStage: 'sale_partially_reversed',
  orderId: '1000001',
  card: {},
} as unknown as StatusResponse;

describe('an order looked up with the journal unreadable', () => {
  it('never says refunds were made outside Paydesk, and offers no action', () => {
    const view = orderView('p', partlyRefunded, [], 'The team database cannot be reached.');
    expect(view.changedElsewhere).toBe(false);
    // Nor does the order's history: only the gateway's state as read.
    expect(view.timeline.map((item) => item.kind)).toEqual(['read']);
    expect(view.refunded).toBeNull();
    expect(view.actions.refund.allowed).toBe(false);
    // The same answer with the journal read (and empty): the refund was made elsewhere.
    expect(orderView('p', partlyRefunded, []).changedElsewhere).toBe(true);
  });

  it('is asked again by itself while the journal is unreadable, even when final', () => {
    const view = orderView('p', partlyRefunded, [], 'The team database cannot be reached.');
    const shown = { ...view, pending: [] };
    expect(shown.final).toBe(true);
    expect(orderRefreshInterval(shown as never)).toBeGreaterThan(0);
    expect(orderRefreshInterval({ ...shown, journalUnreadable: null })).toBe(false);
  });
});
