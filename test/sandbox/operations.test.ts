// The client against the sandbox over real HTTP on 127.0.0.1, for every operation of the
// table: what the user would see when each one works.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REQUEST_OPERATIONS } from '../../main/gateway/operations';
import { CARD, coid, saleFields, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** An approved order of `kind` (sale or preauth), final. */
async function approved(kind: 'SALE' | 'PREAUTH', amount = '10.42') {
  const fields = saleFields('123', { amount });
  const answer = await h.call(kind, fields);
  await h.settle();
  return { orderid: answer.orderId ?? '', clientOrderId: fields.client_orderid ?? '' };
}

async function cardRef(): Promise<string> {
  const sale = await approved('SALE');
  const ref = await h.call('CARDREF', {
    client_orderid: sale.clientOrderId,
    orderid: sale.orderid,
  });
  return ref.cardRefId ?? '';
}

describe('every operation of the table, over HTTP', () => {
  it('SALE: processing first, approved after the delay, with the card and approval details', async () => {
    const fields = saleFields('123');
    const answer = await h.call('SALE', fields);
    expect(answer.type).toBe('async-response');
    expect(answer.clientOrderId).toBe(fields.client_orderid);
    expect(answer.endpointId).toBe('1111');
    expect(answer.serialNumber).toMatch(/^[0-9a-f-]{36}$/);
    const first = await h.call('STATUS', {
      orderid: answer.orderId ?? '',
      client_orderid: fields.client_orderid ?? '',
    });
    expect(first.status).toBe('processing');
    await h.settle();
    const final = await h.client.status({ orderid: answer.orderId });
    expect(final).toMatchObject({
      status: 'approved',
      transactionType: 'sale',
      amount: '10.42',
      currency: 'EUR',
      orderStage: 'sale_approved',
      card: {
        bin: '444455',
        lastFourDigits: '1111',
        cardType: 'VISA',
        cardholderName: 'JOHN SMITH',
        expMonth: '12',
        expYear: '2030',
      },
    });
    expect(final.approvalCode).toMatch(/^\d{6}$/);
    expect(final.processorRrn).toMatch(/^\d{12}$/);
  });

  it('PREAUTH, then CAPTURE of part of it', async () => {
    const auth = await approved('PREAUTH', '30.00');
    const cap = await h.call('CAPTURE', {
      client_orderid: coid('cap'),
      orderid: auth.orderid,
      amount: '7.50',
      currency: 'EUR',
    });
    await h.settle();
    expect(await h.client.status({ orderid: cap.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'capture',
      amount: '7.50',
    });
    expect((await h.client.status({ orderid: auth.orderid })).orderStage).toBe(
      'auth_partially_captured',
    );
  });

  it('RETURN of part of a sale, then VOID of another sale', async () => {
    const sale = await approved('SALE', '10.00');
    const ret = await h.call('RETURN', {
      client_orderid: coid('ret'),
      orderid: sale.orderid,
      amount: '2.29',
      currency: 'EUR',
      comment: 'one item back',
    });
    await h.settle();
    expect(await h.client.status({ orderid: ret.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'reversal',
      amount: '2.29',
    });
    expect((await h.client.status({ orderid: sale.orderid })).orderStage).toBe(
      'sale_partially_reversed',
    );

    const other = await approved('SALE');
    const voided = await h.call('VOID', {
      client_orderid: coid('void'),
      orderid: other.orderid,
      comment: 'Duplicate order',
    });
    await h.settle();
    expect(await h.client.status({ orderid: voided.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'void',
    });
    expect((await h.client.status({ orderid: other.orderid })).orderStage).toBe('sale_voided');
  });

  it('ACCOUNT_VERIFICATION: a zero-amount check of the card', async () => {
    const answer = await h.call('ACCOUNT_VERIFICATION', {
      client_orderid: coid('av'),
      email: 'a@example.com',
      ...CARD,
      cvv2: '123',
    });
    await h.settle();
    expect(await h.client.status({ orderid: answer.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'account-verification',
      amount: '0.00',
    });
  });

  it('STATUS by client_orderid alone finds the order', async () => {
    const fields = saleFields('123');
    const answer = await h.call('SALE', fields);
    const status = await h.call('STATUS', { client_orderid: fields.client_orderid ?? '' });
    expect(status.orderId).toBe(answer.orderId);
  });

  it('CARDREF and CARDREF_V4 tokenize an approved order; CARDINFO reads the card back', async () => {
    const sale = await approved('SALE');
    const ref = await h.call('CARDREF', {
      client_orderid: sale.clientOrderId,
      orderid: sale.orderid,
    });
    expect(ref).toMatchObject({ type: 'create-card-ref-response', status: 'approved' });
    expect(ref.cardRefId).toMatch(/^\d+$/);
    const v4 = await h.call('CARDREF_V4', { client_orderid: coid('ref4'), orderid: sale.orderid });
    expect(v4.cardRefId).toBe(ref.cardRefId);
    const info = await h.call('CARDINFO', { cardrefid: ref.cardRefId ?? '' });
    expect(info).toMatchObject({
      cardPrintedName: 'JOHN SMITH',
      bin: '444455',
      lastFourDigits: '1111',
      expireMonth: '12',
      expireYear: '2030',
    });
    expect(info.fields['card-type']).toBe('VISA');
    expect((await h.client.status({ orderid: sale.orderid })).card.cardRefId).toBe(ref.cardRefId);
  });

  it('REBILL charges the stored card without the cardholder', async () => {
    const ref = await cardRef();
    const answer = await h.call('REBILL', {
      client_orderid: coid('rebill'),
      cardrefid: ref,
      amount: '19.99',
      currency: 'EUR',
    });
    await h.settle();
    expect(await h.client.status({ orderid: answer.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'rebill',
      amount: '19.99',
      card: { cardRefId: ref },
    });
  });

  it('CREATE_RP_V4 creates a subscription and returns its id', async () => {
    const ref = await cardRef();
    const answer = await h.call('CREATE_RP_V4', {
      client_orderid: coid('rp'),
      amount: '9.99',
      currency: 'EUR',
      period: 'month',
      interval: '1',
      cardrefid: ref,
    });
    expect(answer.recurringPaymentId).toMatch(/^\d+$/);
  });

  it('the hosted forms answer a redirect-url to a sandbox page', async () => {
    const back = 'https://shop.example.com/return';
    const forms = [
      h.call('SALEFORM', {
        client_orderid: coid('sf'),
        amount: '10.42',
        currency: 'EUR',
        email: 'a@example.com',
        redirect_url: back,
      }),
      h.call('PREAUTHFORM', {
        client_orderid: coid('pf'),
        amount: '30.00',
        currency: 'EUR',
        email: 'a@example.com',
        redirect_url: back,
      }),
      h.call('PAYMENTFORM', {
        client_orderid: coid('pmf'),
        amount: '25.00',
        currency: 'EUR',
        email: 'a@example.com',
        redirect_url: back,
      }),
      h.call('ACCOUNT_VERIFICATION_FORM', {
        client_orderid: coid('avf'),
        email: 'a@example.com',
        redirect_url: back,
      }),
      h.call('PAYOUTFORM', {
        client_orderid: coid('pof'),
        amount: '40.00',
        currency: 'EUR',
        order_desc: 'Seller payout',
        redirect_url: back,
      }),
    ];
    for (const answer of await Promise.all(forms)) {
      expect(answer.type).toBe('async-form-response');
      expect(answer.redirectUrl.startsWith(`${h.sandbox.baseUrl}/sandbox/form/`)).toBe(true);
      const page = await fetch(answer.redirectUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<form method="POST"');
      expect((await h.client.status({ orderid: answer.orderId })).status).toBe('processing');
    }
  });

  it('PAYOUT (one step, HMAC-SHA1) is paid after the delay', async () => {
    const answer = await h.call('PAYOUT', {
      client_orderid: coid('po'),
      amount: '120.00',
      currency: 'EUR',
      'destination-card-no': '4111111111111111',
    });
    await h.settle();
    expect(await h.client.status({ orderid: answer.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'payout',
      amount: '120.00',
    });
  });

  it('PAYOUT_V4_CHECK registers without paying; PAYOUT_V4_PAY executes it', async () => {
    const id = coid('poc');
    const check = await h.call('PAYOUT_V4_CHECK', {
      client_orderid: id,
      amount: '55.00',
      currency: 'EUR',
      'destination-card-no': '4111111111111111',
    });
    await h.settle();
    expect(await h.client.status({ orderid: check.orderId })).toMatchObject({
      status: 'processing',
      orderStage: 'payout_checked',
    });
    const pay = await h.call('PAYOUT_V4_PAY', { client_orderid: id, orderid: check.orderId ?? '' });
    expect(pay.orderId).toBe(check.orderId);
    await h.settle();
    expect(await h.client.status({ orderid: check.orderId })).toMatchObject({
      status: 'approved',
      orderStage: 'payout_approved',
    });
  });

  it('PAN_ELIGIBILITY_SEND, TRANSFER_V4 and TRANSFER_BY_REF_V4', async () => {
    const ref = await cardRef();
    const pan = await h.call('PAN_ELIGIBILITY_SEND', {
      'client-order-id': coid('pan'),
      'sending-card-ref-id': ref,
    });
    const transfer = await h.call('TRANSFER_V4', {
      client_orderid: coid('tr'),
      amount: '15.00',
      currency: 'EUR',
      ...CARD,
      cvv2: '123',
      'destination-card-no': '4111111111111111',
    });
    const byRef = await h.call('TRANSFER_BY_REF_V4', {
      'client-order-id': coid('trr'),
      'sending-card-ref-id': ref,
      amount: '5.00',
      currency: 'EUR',
      'destination-card-no': '4111111111111111',
    });
    await h.settle();
    for (const [answer, type] of [
      [pan, 'pan-eligibility'],
      [transfer, 'transfer'],
      [byRef, 'transfer'],
    ] as const) {
      expect(await h.client.status({ orderid: answer.orderId })).toMatchObject({
        status: 'approved',
        transactionType: type,
      });
    }
  });

  it('the three 3DS uploads move a 3DS sale from the Method step to approved', async () => {
    const fields = saleFields('321');
    const sale = await h.call('SALE', fields);
    const ref = { 'client-order-id': fields.client_orderid ?? '', orderid: sale.orderId ?? '' };
    await h.call('TDS_UPLOAD_METHOD_URL_RESULT', {
      ...ref,
      threeDSCompInd: 'Y',
      browser_language: 'en-GB',
    });
    expect((await h.client.status({ orderid: sale.orderId })).orderStage).toBe(
      'sale_3d_validating',
    );
    await h.call('TDS_UPLOAD_CRES_RESULT', {
      ...ref,
      cres: Buffer.from('{"transStatus":"Y"}').toString('base64url'),
    });
    await h.settle();
    expect((await h.client.status({ orderid: sale.orderId })).status).toBe('approved');

    const v1 = saleFields('321');
    const sale1 = await h.call('SALE', v1);
    await h.call('TDS_UPLOAD_PARES_RESULT', {
      'client-order-id': v1.client_orderid ?? '',
      orderid: sale1.orderId ?? '',
      PaRes: 'eJzVWNmSo0iW/ZW0',
      MD: 'md-1',
    });
    await h.settle();
    expect((await h.client.status({ orderid: sale1.orderId })).status).toBe('approved');
  });

  it('covered every operation of the table', () => {
    expect([...h.covered].sort()).toEqual([...REQUEST_OPERATIONS].sort());
  });
});
