// How each journaled operation's fate is read (main/services/action/outcomes.ts): which status
// shows it, when the gateway has received it, when it is final, and what an immediate answer
// says. Every operation that reads differently from "an order of its own" is pinned here.

import { describe, expect, it } from 'vitest';

import type { GatewayResponse } from '../../../main/gateway/response';
import {
  CHECKED,
  gatewayClientOrderId,
  outcomeRule,
  PAYOUT_CHECKED_STAGE,
} from '../../../main/services/action/outcomes';
import { journalEntry, statusAnswer } from '../../support/entries';

const ASYNC: GatewayResponse = { type: 'async-response', orderId: '2000002', fields: {} };

describe('an order of its own (a refund, a sale, a payout)', () => {
  const rule = outcomeRule('RETURN');

  it('is asked about by its client_orderid, and by its orderid once known', () => {
    const entry = journalEntry('RETURN', { clientOrderId: 'pd-r-1' });
    expect(rule.statusRef(entry)).toEqual({ client_orderid: 'pd-r-1' });
    expect(rule.statusRef({ ...entry, orderId: '2000002' })).toEqual({
      client_orderid: 'pd-r-1',
      orderid: '2000002',
    });
  });

  it('is final with a final status, carrying what the status adds', () => {
    expect(rule.finalOf(statusAnswer({ status: 'processing' }))).toBeUndefined();
    expect(rule.finalOf(statusAnswer({ status: 'unknown' }))).toBeUndefined();
    for (const status of ['approved', 'declined', 'error', 'filtered'] as const)
      expect(rule.finalOf(statusAnswer({ status }))).toEqual({ status, result: {} });
    const payout = statusAnswer({
      fields: { destination: '444455****1111' },
      card: { cardRefId: 'ref-1' },
    });
    expect(rule.finalOf(payout)).toEqual({
      status: 'approved',
      result: { destination: '444455****1111', 'card-ref-id': 'ref-1' },
    });
  });

  it('any status of its own shows it was received', () => {
    expect(rule.received(statusAnswer({ status: 'processing' }))).toBe(true);
  });

  it('its answer gives the orderid, and nothing is final from the answer alone', () => {
    expect(rule.fromAnswer(ASYNC)).toEqual({ orderId: '2000002' });
    expect(rule.fromAnswer({ type: 'async-response', fields: {} })).toEqual({});
  });

  it('has nothing to add while it is not final', () => {
    expect('seenResult' in rule).toBe(false);
  });
});

describe('a hosted form (SALEFORM, PREAUTHFORM)', () => {
  for (const operation of ['SALEFORM', 'PREAUTHFORM']) {
    const rule = outcomeRule(operation);

    it(`${operation}: the answer's form address is kept`, () => {
      expect(
        rule.fromAnswer({
          type: 'async-form-response',
          orderId: '3000003',
          redirectUrl: 'https://gw/form/1',
          fields: {},
        }),
      ).toEqual({ orderId: '3000003', result: { 'redirect-url': 'https://gw/form/1' } });
    });

    it(`${operation}: while the customer is on the form, the status's address is kept`, () => {
      const waiting = statusAnswer({ status: 'processing', redirectTo: 'https://gw/form/2' });
      expect(rule.seenResult?.(waiting)).toEqual({ 'redirect-url': 'https://gw/form/2' });
      // A 3-D Secure page (html) is the customer's bank, not the form: nothing is kept.
      expect(rule.seenResult?.({ ...waiting, html: '<form>' })).toBeUndefined();
      expect(rule.seenResult?.(statusAnswer({ redirectTo: 'https://gw/x' }))).toBeUndefined();
    });
  }
});

describe('a payout in two steps', () => {
  it('the check is done once the payout is registered, not paid', () => {
    const rule = outcomeRule('PAYOUT_V4_CHECK');
    const registered = statusAnswer({
      status: 'processing',
      orderStage: PAYOUT_CHECKED_STAGE,
      fields: { destination: '444455****1111' },
    });
    expect(rule.finalOf(registered)).toEqual({
      status: CHECKED,
      result: { destination: '444455****1111' },
    });
    expect(
      rule.finalOf(statusAnswer({ status: 'processing', orderStage: 'payout_processing' })),
    ).toBeUndefined();
    expect(rule.finalOf(statusAnswer({ status: 'declined' }))).toMatchObject({
      status: 'declined',
    });
  });

  it('the pay is asked about by the check’s ids, and received once the payout left checked', () => {
    const rule = outcomeRule('PAYOUT_V4_PAY');
    const pay = journalEntry('PAYOUT_V4_PAY', {
      clientOrderId: 'pd-pay-1',
      summary: { client_orderid: 'pd-check-1', orderid: '4000004' },
      targetOrderId: '4000004',
      orderId: '9999999',
    });
    expect(gatewayClientOrderId(pay)).toBe('pd-check-1');
    expect(rule.statusRef(pay)).toEqual({ client_orderid: 'pd-check-1', orderid: '4000004' });
    expect(
      rule.received(statusAnswer({ status: 'processing', orderStage: PAYOUT_CHECKED_STAGE })),
    ).toBe(false);
    expect(
      rule.received(statusAnswer({ status: 'processing', orderStage: 'payout_processing' })),
    ).toBe(true);
  });
});

describe('a card reference (CARDREF, CARDREF_V4)', () => {
  for (const operation of ['CARDREF', 'CARDREF_V4']) {
    const rule = outcomeRule(operation);

    it(`${operation}: read from the status of the order it was made from`, () => {
      expect(rule.statusRef(journalEntry(operation, { targetOrderId: '5000005' }))).toEqual({
        orderid: '5000005',
      });
      expect(rule.statusRef(journalEntry(operation, { targetOrderId: null }))).toBeUndefined();
    });

    it(`${operation}: received and final once that order shows a card reference`, () => {
      const without = statusAnswer();
      const withRef = statusAnswer({ card: { cardRefId: 'ref-9' } });
      expect(rule.received(without)).toBe(false);
      expect(rule.finalOf(without)).toBeUndefined();
      expect(rule.received(withRef)).toBe(true);
      expect(rule.finalOf(withRef)).toEqual({
        status: 'approved',
        result: { 'card-ref-id': 'ref-9' },
      });
    });

    it(`${operation}: its answer is final at once, with the gateway's status when it gives one`, () => {
      expect(
        rule.fromAnswer({ type: 'create-card-ref-response', cardRefId: 'ref-9', fields: {} }),
      ).toEqual({ final: 'approved', result: { 'card-ref-id': 'ref-9' } });
      expect(
        rule.fromAnswer({ type: 'create-card-ref-response', status: 'declined', fields: {} }),
      ).toEqual({ final: 'declined', result: {} });
    });
  }
});

describe('a recurring payment (CREATE_RP_V4)', () => {
  const rule = outcomeRule('CREATE_RP_V4');

  it('has no status: a lost answer is settled only by a person', () => {
    expect(rule.statusRef(journalEntry('CREATE_RP_V4'))).toBeUndefined();
    expect(rule.received(statusAnswer())).toBe(false);
    expect(rule.finalOf(statusAnswer())).toBeUndefined();
  });

  it('its answer is final, with the subscription’s id and the card reference', () => {
    expect(
      rule.fromAnswer({
        type: 'create-recurring-payment-response',
        recurringPaymentId: 'rp-1',
        fields: { 'card-ref-id': 'ref-3' },
      }),
    ).toEqual({
      final: 'approved',
      result: { 'recurring-payment-id': 'rp-1', 'card-ref-id': 'ref-3' },
    });
  });
});

describe('the client_orderid a request carried', () => {
  it('is the entry’s own, unless the request named another (a 3-D Secure upload’s field)', () => {
    expect(gatewayClientOrderId(journalEntry('RETURN', { clientOrderId: 'pd-1' }))).toBe('pd-1');
    expect(
      gatewayClientOrderId(
        journalEntry('TDS_UPLOAD_CRES_RESULT', {
          clientOrderId: 'pd-2',
          summary: { 'client-order-id': 'shop-2' },
        }),
      ),
    ).toBe('shop-2');
  });
});
