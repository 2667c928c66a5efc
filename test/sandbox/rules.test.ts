// The order rules a clerk runs into: outcomes by CVV2, what capture, return and void allow,
// repeated client_orderids, payouts and 3DS uploads out of turn. Every refusal is a
// ValidationErrorResponse whose message says why.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CARD, coid, expectRefused, saleFields, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function order(kind: 'SALE' | 'PREAUTH', cvv2 = '123', amount = '10.00', settle = true) {
  const fields = saleFields(cvv2, { amount });
  const answer = await h.call(kind, fields);
  if (settle) await h.settle();
  return { orderid: answer.orderId ?? '', clientOrderId: fields.client_orderid ?? '' };
}

const capture = (orderid: string, amount?: string, currency = 'EUR') =>
  h.call('CAPTURE', {
    client_orderid: coid('cap'),
    orderid,
    ...(amount ? { amount, currency } : {}),
  });
const refund = (orderid: string, amount?: string, currency = 'EUR') =>
  h.call('RETURN', {
    client_orderid: coid('ret'),
    orderid,
    ...(amount ? { amount, currency } : {}),
  });
const voidIt = (orderid: string, extra: Record<string, string> = {}) =>
  h.call('VOID', { client_orderid: coid('void'), orderid, comment: 'Duplicate order', ...extra });

describe('outcomes by CVV2', () => {
  it('approves 123, 1234 and 111, declines the documented codes with their reasons, leaves 217 unknown', async () => {
    const expected: [string, string, string?, string?][] = [
      ['123', 'approved'],
      ['1234', 'approved'],
      ['111', 'approved'],
      ['217', 'unknown'],
      ['101', 'declined', '54', 'expired card'],
      ['116', 'declined', '51', 'insufficient funds'],
      ['119', 'declined', '57', 'not permitted'],
      ['209', 'declined', '04', 'pick up card'],
      ['555', 'declined', '05', 'do not honor'],
    ];
    const orders = await Promise.all(expected.map(([cvv2]) => h.call('SALE', saleFields(cvv2))));
    await h.settle();
    h.sandbox.clock.advance(3_600_000); // an hour later 217 is still waiting for a person
    for (const [i, [, status, code, reason]] of expected.entries()) {
      const s = await h.client.status({ orderid: orders[i]?.orderId });
      expect(s.status).toBe(status);
      if (code)
        expect([s.errorCode, s.errorMessage]).toEqual([
          code,
          expect.stringContaining(reason ?? '') as unknown,
        ]);
    }
  });

  it('holds 321 in processing with html and redirect-to pointing at the sandbox ACS page', async () => {
    const sale = await order('SALE', '321');
    const s = await h.client.status({ orderid: sale.orderid });
    expect([s.status, s.orderStage]).toEqual(['processing', 'sale_3d_method']);
    expect(s.redirectTo?.startsWith(`${h.sandbox.baseUrl}/sandbox/acs/`)).toBe(true);
    expect(s.html).toContain(`action="${s.redirectTo ?? ''}"`);
    const page = await fetch(s.redirectTo ?? '');
    expect(await page.text()).toContain('3-D Secure check');
  });
});

describe('capture', () => {
  it('is refused on a sale, a preauth still processing and a declined preauth', async () => {
    await expectRefused(capture((await order('SALE')).orderid), 400, '7', /settles a preauth/);
    await expectRefused(
      capture((await order('PREAUTH', '123', '10.00', false)).orderid),
      400,
      '7',
      /approved preauth.*processing/,
    );
    await expectRefused(capture((await order('PREAUTH', '116')).orderid), 400, '7', /declined/);
  });

  it('never goes above what is left of the hold, and without amount takes the rest', async () => {
    const auth = await order('PREAUTH', '123', '30.00');
    await expectRefused(
      capture(auth.orderid, '30.01'),
      400,
      '8',
      /above what is left of the hold, 30\.00 EUR/,
    );
    await expectRefused(capture(auth.orderid, '5.00', 'USD'), 400, '8', /currency USD differs/);
    await capture(auth.orderid, '10.00');
    await expectRefused(capture(auth.orderid, '20.01'), 400, '8', /20\.00 EUR/);
    const rest = await capture(auth.orderid);
    await h.settle();
    expect((await h.client.status({ orderid: rest.orderId })).amount).toBe('20.00');
    expect((await h.client.status({ orderid: auth.orderid })).orderStage).toBe('auth_captured');
    await expectRefused(capture(auth.orderid, '0.01'), 400, '7', /fully captured/);
  });

  it('gets back what a voided capture took', async () => {
    const auth = await order('PREAUTH', '123', '30.00');
    const cap = await capture(auth.orderid, '30.00');
    await h.settle();
    await voidIt(cap.orderId ?? '');
    await h.settle();
    await capture(auth.orderid, '30.00');
  });
});

describe('return', () => {
  it('is refused until the order is final and successful', async () => {
    await expectRefused(
      refund((await order('SALE', '123', '10.00', false)).orderid),
      400,
      '7',
      /final successful status.*processing/,
    );
    await expectRefused(refund((await order('SALE', '116')).orderid), 400, '7', /declined/);
    await expectRefused(refund((await order('SALE', '217')).orderid), 400, '7', /unknown/);
  });

  it('allows partial reversals whose sum never exceeds the original', async () => {
    const sale = await order('SALE', '123', '10.00');
    await refund(sale.orderid, '6.00');
    await expectRefused(
      refund(sale.orderid, '5.00'),
      400,
      '8',
      /above what is left to return, 4\.00 EUR/,
    );
    const last = await refund(sale.orderid);
    await h.settle();
    expect(await h.client.status({ orderid: last.orderId })).toMatchObject({
      transactionType: 'reversal',
      amount: '4.00',
      status: 'approved',
    });
    expect((await h.client.status({ orderid: sale.orderid })).orderStage).toBe('sale_reversed');
    await expectRefused(refund(sale.orderid, '0.01'), 400, '7', /fully returned/);
  });

  it('cancels a preauth (the whole hold or nothing), after which nothing can be captured', async () => {
    const auth = await order('PREAUTH', '123', '50.00');
    await expectRefused(refund(auth.orderid, '10.00'), 400, '8', /cancels the whole hold/);
    const cancel = await refund(auth.orderid);
    await h.settle();
    expect(await h.client.status({ orderid: cancel.orderId })).toMatchObject({
      transactionType: 'cancel',
      amount: '50.00',
      status: 'approved',
    });
    expect((await h.client.status({ orderid: auth.orderid })).orderStage).toBe('auth_cancelled');
    await expectRefused(capture(auth.orderid), 400, '7', /cancelled/);
    await expectRefused(refund(auth.orderid), 400, '7', /already cancelled/);
  });

  it('refunds a capture, and refuses a payout', async () => {
    const auth = await order('PREAUTH', '123', '20.00');
    const cap = await capture(auth.orderid, '20.00');
    await h.settle();
    await refund(cap.orderId ?? '', '5.00');
    const payout = await h.call('PAYOUT', {
      client_orderid: coid('po'),
      amount: '5.00',
      currency: 'EUR',
      'destination-card-no': '4111111111111111',
    });
    await h.settle();
    await expectRefused(refund(payout.orderId ?? ''), 400, '7', /cannot be returned/);
  });
});

describe('void', () => {
  it('is refused on a preauth, on a sale still processing, with an amount, and twice', async () => {
    await expectRefused(
      voidIt((await order('PREAUTH')).orderid),
      400,
      '7',
      /release a preauth with a return/,
    );
    await expectRefused(
      voidIt((await order('SALE', '123', '10.00', false)).orderid),
      400,
      '7',
      /processing/,
    );
    const sale = await order('SALE');
    await expectRefused(voidIt(sale.orderid, { amount: '1.00' }), 400, '8', /never partial/);
    await voidIt(sale.orderid);
    await expectRefused(voidIt(sale.orderid), 400, '7', /already voided/);
    await h.settle();
    await expectRefused(refund(sale.orderid), 400, '7', /voided/);
  });

  it('is refused once the sale is settled, or after a return', async () => {
    const sale = await order('SALE');
    const returned = await order('SALE');
    await refund(returned.orderid, '1.00');
    await expectRefused(voidIt(returned.orderid), 400, '7', /has returns/);
    h.sandbox.clock.advance(24 * 3_600_000);
    await expectRefused(voidIt(sale.orderid), 400, '7', /settled; use a return/);
  });
});

describe('client_orderid', () => {
  it('answers an identical repeat with the first answer, and refuses changed fields (error-code 5)', async () => {
    const fields = saleFields('123');
    const first = await h.call('SALE', fields);
    const again = await h.call('SALE', fields);
    expect(again.fields).toEqual(first.fields);
    expect(
      h.sandbox.orders().filter((o) => o.clientOrderId === fields.client_orderid),
    ).toHaveLength(1);
    await expectRefused(
      h.call('SALE', { ...fields, amount: '10.43' }),
      400,
      '5',
      /already used for SALE with different fields/,
    );
  });

  it('repeats a refund once, not twice', async () => {
    const sale = await order('SALE', '123', '10.00');
    const fields = {
      client_orderid: coid('ret'),
      orderid: sale.orderid,
      amount: '3.00',
      currency: 'EUR',
    };
    const first = await h.call('RETURN', fields);
    const again = await h.call('RETURN', fields);
    expect(again.orderId).toBe(first.orderId);
    expect(h.sandbox.orders().filter((o) => o.parentOrderId === sale.orderid)).toHaveLength(1);
  });

  it("refuses a new order under an id that names another order, but lets a follow-up use its order's id", async () => {
    const sale = await order('SALE');
    await expectRefused(
      h.call('PREAUTH', saleFields('123', { client_orderid: sale.clientOrderId })),
      400,
      '5',
      /already names order/,
    );
    const auth = await order('PREAUTH', '123', '10.00');
    const cap = await h.call('CAPTURE', {
      client_orderid: auth.clientOrderId,
      orderid: auth.orderid,
      amount: '1.00',
      currency: 'EUR',
    });
    expect((await h.client.status({ client_orderid: auth.clientOrderId })).orderId).toBe(
      cap.orderId,
    );
    await expectRefused(
      h.call('CAPTURE', { client_orderid: sale.clientOrderId, orderid: auth.orderid }),
      400,
      '5',
      /names order/,
    );
  });

  it('records nothing for a refused request, so the corrected one may reuse the id', async () => {
    const fields = saleFields('123');
    await expectRefused(
      h.call('PAYOUT', {
        client_orderid: fields.client_orderid ?? '',
        amount: '1.00',
        currency: 'EUR',
      }),
      400,
      '1',
      /needs a destination/,
    );
    expect((await h.call('SALE', fields)).type).toBe('async-response');
  });
});

describe('references that do not exist', () => {
  it('names what was not found (error-code 6)', async () => {
    await expectRefused(capture('99999999'), 400, '6', /No order with orderid 99999999/);
    await expectRefused(
      h.client.status({ client_orderid: 'never-sent' }),
      400,
      '6',
      /client_orderid never-sent/,
    );
    await expectRefused(
      h.call('CARDINFO', { cardrefid: '123' }),
      400,
      '6',
      /No card reference 123/,
    );
    await expectRefused(
      h.call('REBILL', { client_orderid: coid(), cardrefid: '5', amount: '1.00', currency: 'EUR' }),
      400,
      '6',
      /card reference 5/,
    );
    const sale = await order('SALE');
    await expectRefused(
      h.client.status({ orderid: sale.orderid, client_orderid: 'other' }),
      400,
      '6',
      /does not carry client_orderid other/,
    );
  });

  it('makes card references only from approved payments', async () => {
    const declined = await order('SALE', '116');
    await expectRefused(
      h.call('CARDREF', { client_orderid: declined.clientOrderId, orderid: declined.orderid }),
      400,
      '7',
      /approved payment/,
    );
  });
});

describe('payouts', () => {
  it('pays a checked payout once; pay without check or twice is refused', async () => {
    const oneStep = await h.call('PAYOUT', {
      client_orderid: coid('po'),
      amount: '5.00',
      currency: 'EUR',
      'destination-card-no': '4111111111111111',
    });
    const oneStepId =
      h.sandbox.orders().find((o) => o.orderid === oneStep.orderId)?.clientOrderId ?? '';
    await expectRefused(
      h.call('PAYOUT_V4_PAY', { client_orderid: oneStepId, orderid: oneStep.orderId ?? '' }),
      400,
      '7',
      /not registered by payout-check/,
    );
    await expectRefused(
      h.call('PAYOUT_V4_PAY', { client_orderid: 'x', orderid: '99999999' }),
      400,
      '6',
      /No order/,
    );

    const id = coid('poc');
    const check = await h.call('PAYOUT_V4_CHECK', {
      client_orderid: id,
      amount: '55.00',
      currency: 'EUR',
      account_number: 'DE89370400440532013000',
      bank_bic: 'COBADEFFXXX',
    });
    await expectRefused(
      h.call('PAYOUT_V4_PAY', { client_orderid: 'another', orderid: check.orderId ?? '' }),
      400,
      '6',
      /does not carry/,
    );
    await h.call('PAYOUT_V4_PAY', { client_orderid: id, orderid: check.orderId ?? '' });
    await expectRefused(
      h.call('PAYOUT_V4_PAY', { client_orderid: id, orderid: check.orderId ?? '' }),
      400,
      '7',
      /already paid/,
    );
    await h.settle();
    expect((await h.client.status({ orderid: check.orderId })).status).toBe('approved');
  });

  it('refuses a payout without a destination, or to an unknown card reference', async () => {
    await expectRefused(
      h.call('PAYOUT_V4_CHECK', { client_orderid: coid(), amount: '1.00', currency: 'EUR' }),
      400,
      '1',
      /needs a destination/,
    );
    await expectRefused(
      h.call('PAYOUT', {
        client_orderid: coid(),
        amount: '1.00',
        currency: 'EUR',
        'destination-card-ref-id': '42',
      }),
      400,
      '6',
      /card reference 42/,
    );
  });
});

describe('3DS uploads out of turn', () => {
  it('are refused on an order not waiting for 3DS, and the Method step only once', async () => {
    const plain = await order('SALE');
    const ref = { 'client-order-id': plain.clientOrderId, orderid: plain.orderid };
    await expectRefused(
      h.call('TDS_UPLOAD_PARES_RESULT', { ...ref, PaRes: 'abc' }),
      400,
      '7',
      /not waiting for 3DS/,
    );
    const tds = await order('SALE', '321');
    const tdsRef = { 'client-order-id': tds.clientOrderId, orderid: tds.orderid };
    await h.call('TDS_UPLOAD_METHOD_URL_RESULT', { ...tdsRef, threeDSCompInd: 'N' });
    await expectRefused(
      h.call('TDS_UPLOAD_METHOD_URL_RESULT', { ...tdsRef, threeDSCompInd: 'Y' }),
      400,
      '7',
      /past the 3DS Method step/,
    );
    await expectRefused(
      h.call('TDS_UPLOAD_CRES_RESULT', { ...tdsRef, cres: 'not-json' }),
      400,
      '2',
      /base64url/,
    );
  });

  it('declines when the cardholder fails the challenge', async () => {
    const tds = await order('SALE', '321');
    await h.call('TDS_UPLOAD_CRES_RESULT', {
      'client-order-id': tds.clientOrderId,
      orderid: tds.orderid,
      cres: Buffer.from('{"transStatus":"N"}').toString('base64url'),
    });
    await h.settle();
    expect(await h.client.status({ orderid: tds.orderid })).toMatchObject({
      status: 'declined',
      errorMessage: 'Declined: 3-D Secure authentication failed',
    });
  });
});

describe('recurring payments and stored cards', () => {
  it('declines a rebill on an expired stored card once the clock passes its expiry', async () => {
    const fields = saleFields('123', {
      ...CARD,
      expire_year: String(new Date().getUTCFullYear() + 1),
      expire_month: '01',
    });
    const sale = await h.call('SALE', fields);
    await h.settle();
    const ref = await h.call('CARDREF', {
      client_orderid: fields.client_orderid ?? '',
      orderid: sale.orderId ?? '',
    });
    h.sandbox.clock.advance(2 * 366 * 86_400_000);
    const rebill = await h.call('REBILL', {
      client_orderid: coid('rb'),
      cardrefid: ref.cardRefId ?? '',
      amount: '1.00',
      currency: 'EUR',
    });
    await h.settle();
    expect(await h.client.status({ orderid: rebill.orderId })).toMatchObject({
      status: 'declined',
      errorCode: '54',
    });
  });
});

describe('money', () => {
  it('is exact: 0.29 stays 0.29, and three returns of 0.10 empty a 0.30 sale to the cent', async () => {
    const small = await order('SALE', '123', '0.29');
    expect((await h.client.status({ orderid: small.orderid })).amount).toBe('0.29');
    const sale = await order('SALE', '123', '0.30');
    for (let i = 0; i < 3; i++) await refund(sale.orderid, '0.10');
    await expectRefused(refund(sale.orderid, '0.01'), 400, '7', /fully returned/);
    const returned = h.sandbox.orders().filter((o) => o.parentOrderId === sale.orderid);
    expect(returned.reduce((sum, o) => sum + o.amountMinor, 0n)).toBe(30n);
  });
});
