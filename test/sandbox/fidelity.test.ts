// The sandbox accepts what real clients of this gateway send (issue 10, docs/sandbox.md,
// "Fidelity to real clients"). Each request below is built the way the client's published
// source builds it, not by Paydesk's client: the fields it sends, the checksum it signs, the
// form encoding. Two clients are reproduced:
//
// - the operator's official PHP library, payneteasy/php-library-payneteasy-api:
//   source/PaynetEasy/PaynetEasyApi/Query/Prototype/Query.php (createSignature: the
//   signatureDefinition values concatenated, sha1, lowercase hex), Query/CaptureQuery.php
//   (client_orderid = payment.clientId, orderid = payment.paynetId, login; signed with
//   payment.amountInCents and payment.currency although neither is sent), Query/ReturnQuery.php
//   (adds amount, currency and comment, always), Query/SaleQuery.php, PaymentData/Payment.php
//   (amountInCents = (int)(amount * 100)), Util/Validator.php (YEAR = ^[0-9]{1,2}$),
//   example/sale.php ('expire_year' => '14'), Transport/GatewayClient.php (http_build_query).
//   After each answer the library stores the answer's paynet-order-id as payment.paynetId
//   (Query.php, setPaynetId), so a return after a capture names the capture's orderid under
//   the preauth's client_orderid.
// - the community Node client PredokMiF/node-payneteasy: src/pne/req.js (control =
//   SHA1(controlFields.join('')), querystring body), src/pne/captureReq.js and returnReq.js
//   (client_orderid = the payment's transactionUuid, the same as the preauth's; orderid = the
//   preauth's id; amount and currency always; control over login + client_orderid + orderid +
//   (amount*100).toFixed(0) + currency + control key). Its return is how it cancels a hold.
//
// Neither client sends an Accept header. There the spec is clear and the sandbox refuses
// (error-code 3, tested in auth.test.ts), so these requests add the header and nothing else.

import { createHash } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseBody } from '../../main/gateway/answer-body';
import { CONTROL_KEY, coid, saleFields, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const LOGIN = 'test-merchant';
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

interface Answer {
  status: number;
  contentType: string;
  body: string;
  fields: Record<string, string>;
}

/** POSTs a form the way both clients do (curl / https.request), plus the Accept the spec demands. */
async function post(operation: string, fields: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${h.sandbox.baseUrl}/api/v2/${operation}/1111`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/vnd.pay+json',
    },
    body: new URLSearchParams(fields).toString(),
  });
  const body = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  return { status: response.status, contentType, body, fields: parseBody(contentType, body) ?? {} };
}

/** The PHP library's payment: what it remembers between requests. */
interface PhpPayment {
  clientId: string;
  paynetId: string;
  /** A PHP float in major units; amountInCents truncates amount * 100. */
  amount: number;
  currency: string;
  comment?: string;
}

const phpCents = (amount: number) => String(Math.trunc(amount * 100));

const php = {
  sale(payment: PhpPayment, card: { expire_year: string }): Promise<Answer> {
    const email = 'vass.pupkin@example.com';
    return post('sale', {
      client_orderid: payment.clientId,
      order_desc: 'This is test payment',
      amount: String(payment.amount),
      currency: payment.currency,
      address1: '2704 Colonial Drive',
      city: 'Houston',
      zip_code: '1235',
      country: 'US',
      phone: '660-485-6353',
      ipaddress: '127.0.0.1',
      email,
      card_printed_name: 'Vasya Pupkin',
      credit_card_number: '4444555566661111',
      expire_month: '12',
      expire_year: card.expire_year,
      cvv2: '123',
      redirect_url: 'https://shop.example.com/return',
      control: sha1(`1111${payment.clientId}${phpCents(payment.amount)}${email}${CONTROL_KEY}`),
    });
  },
  /** CaptureQuery: no amount or currency on the wire, both in the checksum. */
  capture(payment: PhpPayment): Promise<Answer> {
    return post('capture', {
      client_orderid: payment.clientId,
      orderid: payment.paynetId,
      login: LOGIN,
      control: sha1(
        `${LOGIN}${payment.clientId}${payment.paynetId}${phpCents(payment.amount)}${payment.currency}${CONTROL_KEY}`,
      ),
    });
  },
  /** ReturnQuery: amount, currency and comment always sent and signed. */
  return(payment: PhpPayment): Promise<Answer> {
    return post('return', {
      client_orderid: payment.clientId,
      orderid: payment.paynetId,
      amount: String(payment.amount),
      currency: payment.currency,
      comment: payment.comment ?? 'Customer asked',
      login: LOGIN,
      control: sha1(
        `${LOGIN}${payment.clientId}${payment.paynetId}${phpCents(payment.amount)}${payment.currency}${CONTROL_KEY}`,
      ),
    });
  },
};

/** node-payneteasy: amount is a JS number, sent by querystring, signed as (amount*100).toFixed(0). */
function nodeFollowUp(
  operation: 'capture' | 'return',
  data: { transactionUuid: string; preauthPneId: string; amount: number; currency: string },
): Promise<Answer> {
  const fields: Record<string, string> = {
    login: LOGIN,
    client_orderid: data.transactionUuid,
    orderid: data.preauthPneId,
    amount: String(data.amount),
    currency: data.currency,
    ...(operation === 'return' ? { comment: 'Hold released' } : {}),
  };
  const controlFields = [
    LOGIN,
    data.transactionUuid,
    data.preauthPneId,
    (data.amount * 100).toFixed(0),
    data.currency,
    CONTROL_KEY,
  ];
  return post(operation, { ...fields, control: sha1(controlFields.join('')) });
}

/** An approved order made by Paydesk's own client (the follow-ups are what is under test). */
async function approved(kind: 'SALE' | 'PREAUTH', amount: string) {
  const fields = saleFields('123', { amount });
  const answer = await h.call(kind, fields);
  await h.settle();
  return { orderid: answer.orderId ?? '', clientOrderId: fields.client_orderid ?? '' };
}

const ok = (answer: Answer) => {
  expect({ status: answer.status, type: answer.fields.type }).toEqual({
    status: 200,
    type: 'async-response',
  });
  return answer.fields['paynet-order-id'] ?? '';
};

const children = (orderid: string) => h.sandbox.orders().filter((o) => o.parentOrderId === orderid);

describe('1. capture and return without amount: both checksum forms', () => {
  it("accepts the PHP library's capture, signed with the preauth's amount and currency it does not send", async () => {
    const auth = await approved('PREAUTH', '10.00');
    const payment = { clientId: coid('php'), paynetId: auth.orderid, amount: 10, currency: 'EUR' };
    const cap = ok(await php.capture(payment));
    await h.settle();
    expect(await h.client.status({ orderid: cap })).toMatchObject({
      transactionType: 'capture',
      amount: '10.00',
      status: 'approved',
    });
  });

  it("still accepts the spec's form, signed without amount and currency", async () => {
    const auth = await approved('PREAUTH', '10.00');
    const clientId = coid('spec');
    const answer = await post('capture', {
      client_orderid: clientId,
      orderid: auth.orderid,
      login: LOGIN,
      control: sha1(`${LOGIN}${clientId}${auth.orderid}${CONTROL_KEY}`),
    });
    ok(answer);
  });

  it('refuses a checksum over another amount, and says which two forms it expected', async () => {
    const auth = await approved('PREAUTH', '10.00');
    const payment = { clientId: coid('php'), paynetId: auth.orderid, amount: 9, currency: 'EUR' };
    const answer = await php.capture(payment);
    expect([answer.status, answer.fields['error-code']]).toEqual([403, '11']);
    const why = answer.fields['error-message'] ?? '';
    expect(why).toMatch(/sent without amount and currency/);
    expect(why).toMatch(/login \+ client_orderid \+ orderid \+ merchant_control_key/);
    expect(why).toMatch(/order's amount in minor units \(1000\) and its currency \(EUR\)/);
    expect(children(auth.orderid)).toEqual([]);
  });

  it('accepts a return without amount signed with the amount of the order it names', async () => {
    const sale = await approved('SALE', '7.50');
    const clientId = coid('ret');
    const answer = await post('return', {
      client_orderid: clientId,
      orderid: sale.orderid,
      login: LOGIN,
      control: sha1(`${LOGIN}${clientId}${sale.orderid}750EUR${CONTROL_KEY}`),
    });
    const ret = ok(answer);
    await h.settle();
    expect(await h.client.status({ orderid: ret })).toMatchObject({
      transactionType: 'reversal',
      amount: '7.50',
    });
  });
});

describe("2. follow-ups under the order's own client_orderid", () => {
  it('makes every PHP return of a sale a new reversal, even two identical ones', async () => {
    const sale = await approved('SALE', '10.00');
    const payment = { clientId: sale.clientOrderId, paynetId: sale.orderid, currency: 'EUR' };
    ok(await php.return({ ...payment, amount: 3 }));
    ok(await php.return({ ...payment, amount: 2 }));
    ok(await php.return({ ...payment, amount: 2 }));
    await h.settle();
    expect(children(sale.orderid).map((o) => o.amountMinor)).toEqual([300n, 200n, 200n]);
    const over = await php.return({ ...payment, amount: 4 });
    expect([over.status, over.fields['error-code']]).toEqual([400, '8']);
    expect(over.fields['error-message']).toMatch(/above what is left to return, 3\.00 EUR/);
  });

  it('lets the PHP library capture a preauth and then return the capture twice, all under the preauth id', async () => {
    const auth = await approved('PREAUTH', '20.00');
    const payment: PhpPayment = {
      clientId: auth.clientOrderId,
      paynetId: auth.orderid,
      amount: 20,
      currency: 'EUR',
    };
    // The library keeps the answer's paynet-order-id as the payment's paynetId.
    payment.paynetId = ok(await php.capture(payment));
    await h.settle();
    ok(await php.return({ ...payment, amount: 5 }));
    ok(await php.return({ ...payment, amount: 5 }));
    await h.settle();
    expect(children(payment.paynetId).map((o) => [o.kind, o.amountMinor, o.status])).toEqual([
      ['reversal', 500n, 'approved'],
      ['reversal', 500n, 'approved'],
    ]);
    // status by client_orderid reports the latest transaction carrying it.
    expect((await h.client.status({ client_orderid: auth.clientOrderId })).transactionType).toBe(
      'reversal',
    );
  });

  it('keeps the repeat rule for a fresh client_orderid: the same return twice is one reversal', async () => {
    const sale = await approved('SALE', '10.00');
    const payment = { clientId: coid('fresh'), paynetId: sale.orderid, amount: 3, currency: 'EUR' };
    const first = ok(await php.return(payment));
    expect(ok(await php.return(payment))).toBe(first);
    const changed = await php.return({ ...payment, amount: 4 });
    expect([changed.status, changed.fields['error-code']]).toEqual([400, '5']);
    expect(children(sale.orderid)).toHaveLength(1);
  });

  it("lets node-payneteasy capture under the preauth's transactionUuid", async () => {
    const auth = await approved('PREAUTH', '10.00');
    const data = {
      transactionUuid: auth.clientOrderId,
      preauthPneId: auth.orderid,
      amount: 10,
      currency: 'EUR',
    };
    ok(await nodeFollowUp('capture', data));
    await h.settle();
    expect(children(auth.orderid).map((o) => [o.kind, o.amountMinor])).toEqual([
      ['capture', 1000n],
    ]);
  });
});

describe('3. return on a preauth with an amount', () => {
  it("accepts node-payneteasy's cancel, which sends the whole hold as amount", async () => {
    const auth = await approved('PREAUTH', '10.00');
    const data = {
      transactionUuid: auth.clientOrderId,
      preauthPneId: auth.orderid,
      amount: 10,
      currency: 'EUR',
    };
    const cancel = ok(await nodeFollowUp('return', data));
    await h.settle();
    expect(await h.client.status({ orderid: cancel })).toMatchObject({
      transactionType: 'cancel',
      amount: '10.00',
      status: 'approved',
    });
    expect((await h.client.status({ orderid: auth.orderid })).orderStage).toBe('auth_cancelled');
  });

  it('accepts the amount still held after a partial capture, and refuses any other with a sentence', async () => {
    const auth = await approved('PREAUTH', '10.00');
    await h.call('CAPTURE', {
      client_orderid: coid('cap'),
      orderid: auth.orderid,
      amount: '6.00',
      currency: 'EUR',
    });
    await h.settle();
    const payment = { clientId: auth.clientOrderId, paynetId: auth.orderid, currency: 'EUR' };
    for (const amount of [10, 3]) {
      const refused = await php.return({ ...payment, amount });
      expect([refused.status, refused.fields['error-code']]).toEqual([400, '8']);
      expect(refused.fields['error-message']).toMatch(
        new RegExp(
          `cancels the whole hold, 4\\.00 EUR; send it without amount and currency, or with exactly that amount and currency, not ${amount}\\.00 EUR`,
        ),
      );
    }
    const cancel = ok(await php.return({ ...payment, amount: 4 }));
    await h.settle();
    expect(await h.client.status({ orderid: cancel })).toMatchObject({
      transactionType: 'cancel',
      amount: '4.00',
      status: 'approved',
    });
  });

  it('refuses a held amount in another currency', async () => {
    const auth = await approved('PREAUTH', '10.00');
    const answer = await php.return({
      clientId: auth.clientOrderId,
      paynetId: auth.orderid,
      amount: 10,
      currency: 'USD',
    });
    expect([answer.status, answer.fields['error-code']]).toEqual([400, '8']);
    expect(answer.fields['error-message']).toMatch(/10\.00 EUR.*not 10\.00 USD/);
  });
});

describe('4. expire_year with two digits', () => {
  it("accepts the PHP library's two-digit year as 20YY, and four digits as before", async () => {
    for (const [year, stored] of [
      ['30', '2030'],
      ['2031', '2031'],
    ] as const) {
      const payment = { clientId: coid('php-sale'), paynetId: '', amount: 0.99, currency: 'USD' };
      const orderid = ok(await php.sale(payment, { expire_year: year }));
      await h.settle();
      expect(await h.client.status({ orderid })).toMatchObject({
        status: 'approved',
        amount: '0.99',
        card: expect.objectContaining({ expYear: stored }) as unknown,
      });
    }
  });

  it('refuses one digit or three (error-code 2), naming the field', async () => {
    for (const year of ['3', '203']) {
      const payment = { clientId: coid('php-sale'), paynetId: '', amount: 1, currency: 'USD' };
      const answer = await php.sale(payment, { expire_year: year });
      expect([answer.status, answer.fields['error-code']]).toEqual([400, '2']);
      expect(answer.fields['error-message']).toMatch(/expire_year/);
    }
  });
});

describe("5. refusals in the merchant's layout", () => {
  it('answers a lines merchant its missing-Accept refusal in lines, and an unknown endpoint in JSON', async () => {
    h.sandbox.addMerchant({
      login: 'php-shop',
      controlKey: 'PHP-KEY',
      endpointId: '4444',
      responseFormat: 'lines',
    });
    const send = (endpointId: string) =>
      fetch(`${h.sandbox.baseUrl}/api/v2/status/${endpointId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'client_orderid=x&login=php-shop',
      });
    const lines = await send('4444');
    expect(lines.status).toBe(400);
    expect(lines.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await lines.text();
    expect(text).toMatch(/^type=validation-error\n&error-message=.*Accept.*\n&error-code=3\n$/s);
    // The way the PHP library reads an answer: parse_str, which a JSON body would defeat.
    expect(Object.fromEntries(new URLSearchParams(text.replace(/\n/g, '')))).toMatchObject({
      type: 'validation-error',
      'error-code': '3',
    });
    const unknown = await send('9876');
    expect(unknown.headers.get('content-type')).toMatch(/application\/vnd\.pay\+json/);
    expect(((await unknown.json()) as Record<string, string>)['error-code']).toBe('3');
  });
});
