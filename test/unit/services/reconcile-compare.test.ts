// What a reconciliation line finds, from the journal's entry and the gateway's status alone:
// each disagreement a controller must see, and none where "no record" only means "not yet" or
// where an entry of ours still in flight may explain what the gateway shows.

import { describe, expect, it } from 'vitest';

import {
  elsewhereFindings,
  entryFindings,
  readingOf,
} from '../../../main/services/reconcile/compare';
import { journalEntry, statusAnswer } from '../../support/entries';

const kinds = (findings: { kind: string }[]) => findings.map((f) => f.kind);

describe('an entry beside its status', () => {
  const refund = (overrides = {}) =>
    journalEntry('RETURN', {
      clientOrderId: 'pd-r-1',
      orderId: '2000001',
      amountMinor: 1000n,
      currency: 'EUR',
      ...overrides,
    });
  const ownStatus = (overrides = {}) =>
    readingOf(
      statusAnswer({
        clientOrderId: 'pd-r-1',
        orderId: '2000001',
        transactionType: 'reversal',
        orderStage: 'reversal_approved',
        amount: '10.00',
        ...overrides,
      }),
    );

  it('agrees when outcome, amount and currency are the same', () => {
    expect(entryFindings(refund(), ownStatus(), 'approved')).toEqual([]);
  });

  it('says an approval the gateway now calls declined, with its reason', () => {
    const found = entryFindings(
      refund(),
      ownStatus({
        status: 'declined',
        orderStage: 'reversal_declined',
        errorMessage: 'Reversed by the issuer',
      }),
      'declined',
    );
    expect(found).toEqual([
      {
        kind: 'declined-after-approval',
        message:
          'The journal says approved; the gateway now says declined (reversal_declined), 10.00 EUR: Reversed by the issuer.',
      },
    ]);
  });

  it('says a different amount, and a different currency instead of comparing across currencies', () => {
    expect(entryFindings(refund(), ownStatus({ amount: '9.99' }), 'approved')).toEqual([
      { kind: 'amount-differs', message: 'The journal says 10.00 EUR; the gateway says 9.99 EUR.' },
    ]);
    expect(kinds(entryFindings(refund(), ownStatus({ currency: 'USD' }), 'approved'))).toEqual([
      'currency-differs',
    ]);
  });

  it('reads amounts in their currency: 1000 JPY is not 10.00', () => {
    const yen = refund({ amountMinor: 1000n, currency: 'JPY' });
    expect(entryFindings(yen, ownStatus({ amount: '1000', currency: 'JPY' }), 'approved')).toEqual(
      [],
    );
  });

  it('lists an unsettled entry the gateway now knows, and says nothing while it does not', () => {
    const unsettled = refund({ state: 'unknown', status: null });
    expect(entryFindings(unsettled, ownStatus(), 'approved')[0]?.message).toBe(
      'Paydesk still calls this entry unsettled; the gateway now says approved (reversal_approved), 10.00 EUR. Settle it by hand with what the gateway says.',
    );
    expect(entryFindings(unsettled, undefined, undefined)).toEqual([]);
    expect(entryFindings(unsettled, ownStatus({ status: 'processing' }), undefined)).toEqual([]);
  });

  it('calls "no record" a disagreement only for an entry the journal says was approved', () => {
    expect(kinds(entryFindings(refund(), undefined, undefined))).toEqual(['no-record']);
    expect(entryFindings(refund({ state: 'refused', status: null }), undefined, undefined)).toEqual(
      [],
    );
  });

  it('says a refusal the gateway holds after all', () => {
    expect(
      kinds(entryFindings(refund({ state: 'refused', status: null }), ownStatus(), 'approved')),
    ).toEqual(['refused-but-recorded']);
  });
});

describe("an order's stage beside the journal's entries on it", () => {
  const sale = (stage: string) =>
    readingOf(statusAnswer({ orderStage: stage, amount: '100.00', currency: 'EUR' }));
  const refundOf = (minor: bigint, overrides = {}) =>
    journalEntry('RETURN', { targetOrderId: '1000001', amountMinor: minor, ...overrides });

  it('finds the rest of a full refund made elsewhere', () => {
    expect(elsewhereFindings(sale('sale_reversed'), [refundOf(3000n)])).toEqual([
      {
        kind: 'refunded-elsewhere',
        message:
          "The gateway says the order is fully refunded (100.00 EUR); Paydesk's journal holds refunds of 30.00 EUR: the rest was refunded elsewhere.",
      },
    ]);
    expect(elsewhereFindings(sale('sale_reversed'), [refundOf(10000n)])).toEqual([]);
  });

  it('finds a partial refund elsewhere only when the journal holds none', () => {
    expect(kinds(elsewhereFindings(sale('sale_partially_reversed'), []))).toEqual([
      'refunded-elsewhere',
    ]);
    expect(elsewhereFindings(sale('sale_partially_reversed'), [refundOf(1000n)])).toEqual([]);
  });

  it('finds a void or a capture made elsewhere, and refunds only the journal holds', () => {
    expect(kinds(elsewhereFindings(sale('sale_voided'), []))).toEqual(['voided-elsewhere']);
    expect(kinds(elsewhereFindings(sale('auth_partially_captured'), []))).toEqual([
      'captured-elsewhere',
    ]);
    expect(kinds(elsewhereFindings(sale('sale_approved'), [refundOf(1000n)]))).toEqual([
      'journal-only',
    ]);
  });

  it('says nothing while an entry of ours on the order is still in flight', () => {
    const inFlight = refundOf(1000n, { state: 'unknown', status: null });
    expect(elsewhereFindings(sale('sale_reversed'), [inFlight])).toEqual([]);
  });

  it('does not count refunds the journal holds as declined', () => {
    const declined = refundOf(10000n, { status: 'declined' });
    expect(kinds(elsewhereFindings(sale('sale_reversed'), [declined]))).toEqual([
      'refunded-elsewhere',
    ]);
  });
});
