// What happens around the API calls: a person on the hosted form and the ACS page, callbacks
// with their retries, the browser return, recurring charges on the moved clock, the deployed
// key=value answer layout, misbehaviour for the reliability tests, and the demo seed.

import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { verifyCallback } from '../../main/gateway/callback';
import { GatewayClient } from '../../main/gateway/client';
import { ServerError, TransportError } from '../../main/gateway/errors';
import { buildRequest } from '../../main/gateway/request';
import { startSandbox } from '../../main/sandbox';
import {
  CARD,
  CONTROL_KEY,
  coid,
  saleFields,
  sendRaw,
  startHarness,
  type Harness,
} from './harness';

let h: Harness;
let receiver: Receiver;

/** A merchant's callback endpoint on loopback: records every request, answers as told. */
interface Receiver {
  url: string;
  hits: URL[];
  answers: number[];
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { url: '', hits: [], answers: [], server: createServer() };
  r.server.on('request', (req, res) => {
    r.hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.statusCode = r.answers.shift() ?? 200;
    res.end('OK');
  });
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/callback`;
  return r;
}

beforeAll(async () => {
  h = await startHarness({ callbacks: { retryDelaysMs: [1_000, 2_000, 4_000], timeoutMs: 5_000 } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
});

const hitsFor = (orderid: string | undefined) =>
  receiver.hits.filter((u) => u.searchParams.get('orderid') === orderid);
const params = (u: URL) => Object.fromEntries(u.searchParams.entries());

/** Reads the hidden inputs of the browser-return form on the wait page. */
function returnForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="POST" action="([^"]*)" id="back">/.exec(html)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[m[1] ?? ''] = (m[2] ?? '')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  }
  return { action: action.replace(/&amp;/g, '&'), fields };
}

async function post(url: string, form: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

describe('hosted payment form, as a person would use it', () => {
  const back = 'https://shop.example.com/return?order=42';

  it('collects the card, processes the order and posts the customer back with a valid checksum', async () => {
    const form = await h.call('SALEFORM', {
      client_orderid: coid('sf'),
      amount: '10.42',
      currency: 'EUR',
      email: 'a@example.com',
      redirect_url: back,
    });
    const page = await (await fetch(form.redirectUrl)).text();
    expect(page).toContain('Pay 10.42 EUR');

    const typo = await post(form.redirectUrl, {
      ...CARD,
      credit_card_number: '4444 5555 6666 1112',
      cvv2: '123',
    });
    expect(typo.status).toBe(400);
    expect(await typo.text()).toContain('check digit is wrong');

    const sent = await post(form.redirectUrl, {
      ...CARD,
      credit_card_number: '4444 5555 6666 1111',
      cvv2: '123',
    });
    expect(sent.status).toBe(303);
    const wait = sent.headers.get('location') ?? '';
    expect(await (await fetch(wait)).text()).toContain('Processing');
    await h.settle();

    const done = returnForm(await (await fetch(wait)).text());
    expect(done.action).toBe(back);
    expect(done.fields).toMatchObject({
      status: 'approved',
      orderid: form.orderId,
      client_orderid: form.clientOrderId,
      type: 'sale',
      amount: '10.42',
    });
    expect(verifyCallback(done.fields, CONTROL_KEY)).toEqual({ valid: true });
    expect(await h.client.status({ orderid: form.orderId })).toMatchObject({
      status: 'approved',
      card: { lastFourDigits: '1111' },
    });
    // The form cannot be paid twice: it now leads to the result.
    expect((await fetch(form.redirectUrl, { redirect: 'manual' })).status).toBe(303);
  });

  it('sends a 321 card through the ACS challenge; a wrong code is refused, the right one approves', async () => {
    const form = await h.call('PREAUTHFORM', {
      client_orderid: coid('pf'),
      amount: '30.00',
      currency: 'EUR',
      email: 'a@example.com',
      redirect_url: back,
    });
    const sent = await post(form.redirectUrl, { ...CARD, cvv2: '321' });
    const acs = sent.headers.get('location') ?? '';
    expect(acs).toContain('/sandbox/acs/');
    expect(await (await fetch(acs)).text()).toContain('the code is 1234');
    const wrong = await post(acs, { otp: '0000', action: 'authenticate' });
    expect([wrong.status, (await wrong.text()).includes('That code is wrong')]).toEqual([
      400,
      true,
    ]);
    const right = await post(acs, { otp: '1234', action: 'authenticate' });
    expect(right.headers.get('location')).toContain('/sandbox/wait/');
    await h.settle();
    expect(await h.client.status({ orderid: form.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'preauth',
    });
  });

  it('declines when the person cancels the challenge, and collects a payout destination', async () => {
    const form = await h.call('SALEFORM', {
      client_orderid: coid('sf'),
      amount: '5.00',
      currency: 'EUR',
      email: 'a@example.com',
      redirect_url: back,
    });
    const acs =
      (await post(form.redirectUrl, { ...CARD, cvv2: '321' })).headers.get('location') ?? '';
    await post(acs, { action: 'cancel' });
    await h.settle();
    expect((await h.client.status({ orderid: form.orderId })).status).toBe('declined');

    const payout = await h.call('PAYOUTFORM', {
      client_orderid: coid('pof'),
      amount: '40.00',
      currency: 'EUR',
      order_desc: 'Seller payout',
      redirect_url: back,
    });
    expect(await (await fetch(payout.redirectUrl)).text()).toContain('Receive 40.00 EUR');
    await post(payout.redirectUrl, { 'destination-card-no': '4111111111111111' });
    await h.settle();
    expect(await h.client.status({ orderid: payout.orderId })).toMatchObject({
      status: 'approved',
      transactionType: 'payout',
    });
  });

  it('completes a direct 3DS sale on the ACS page opened from the status hand-off', async () => {
    const fields = saleFields('321', { redirect_url: back });
    const sale = await h.call('SALE', fields);
    const s = await h.client.status({ orderid: sale.orderId });
    // The hand-off form POSTs to the ACS without an action: that opens the challenge.
    expect(await (await post(s.redirectTo ?? '', {})).text()).toContain('One-time code');
    const wait =
      (await post(s.redirectTo ?? '', { otp: '1234', action: 'authenticate' })).headers.get(
        'location',
      ) ?? '';
    await h.settle();
    const done = returnForm(await (await fetch(wait)).text());
    expect(done.fields.status).toBe('approved');
    expect(verifyCallback(done.fields, CONTROL_KEY).valid).toBe(true);
  });
});

describe('server callbacks', () => {
  it("delivers a GET with the notes' parameters and checksum when the order becomes final", async () => {
    const sale = await h.call('SALE', saleFields('116', { server_callback_url: receiver.url }));
    expect(hitsFor(sale.orderId)).toHaveLength(0);
    await h.settle();
    const [hit] = hitsFor(sale.orderId);
    expect(params(hit ?? new URL('http://x'))).toMatchObject({
      status: 'declined',
      type: 'sale',
      amount: '10.42',
      error_code: '51',
      error_message: 'Declined: insufficient funds',
      bin: '444455',
      'last-four-digits': '1111',
    });
    expect(verifyCallback(params(hit ?? new URL('http://x')), CONTROL_KEY)).toEqual({
      valid: true,
    });
  });

  it('retries with growing delays until the merchant answers 200, then stops', async () => {
    receiver.answers.push(500, 503);
    const sale = await h.call('SALE', saleFields('123', { server_callback_url: receiver.url }));
    await h.settle();
    expect(hitsFor(sale.orderId)).toHaveLength(1);
    h.sandbox.clock.advance(1_000);
    await h.sandbox.runDueWork();
    expect(hitsFor(sale.orderId)).toHaveLength(2);
    h.sandbox.clock.advance(2_000);
    await h.sandbox.runDueWork();
    expect(hitsFor(sale.orderId)).toHaveLength(3);
    h.sandbox.clock.advance(3_600_000);
    await h.sandbox.runDueWork();
    expect(hitsFor(sale.orderId)).toHaveLength(3);
    expect(h.sandbox.orders().find((o) => o.orderid === sale.orderId)?.callbacks).toEqual([
      { url: receiver.url, attempts: 3, state: 'delivered' },
    ]);
  });

  it('gives up after a bounded number of tries', async () => {
    receiver.answers.push(500, 500, 500, 500, 500, 500);
    const sale = await h.call('SALE', saleFields('123', { server_callback_url: receiver.url }));
    await h.settle();
    for (let i = 0; i < 6; i++) {
      h.sandbox.clock.advance(10_000);
      await h.sandbox.runDueWork();
    }
    expect(hitsFor(sale.orderId)).toHaveLength(4);
    expect(h.sandbox.orders().find((o) => o.orderid === sale.orderId)?.callbacks[0]?.state).toBe(
      'failed',
    );
    receiver.answers.length = 0;
  });

  it("reports a refund to the sale's callback address as type reversal", async () => {
    const sale = await h.call('SALE', saleFields('123', { server_callback_url: receiver.url }));
    await h.settle();
    const ret = await h.call('RETURN', {
      client_orderid: coid('ret'),
      orderid: sale.orderId ?? '',
      amount: '1.00',
      currency: 'EUR',
    });
    await h.settle();
    expect(params(hitsFor(ret.orderId)[0] ?? new URL('http://x'))).toMatchObject({
      type: 'reversal',
      status: 'approved',
      amount: '1.00',
    });
  });
});

describe('recurring payments on the movable clock', () => {
  it('charges every interval when due, and stops after repeats-number', async () => {
    const sale = await h.call('SALE', saleFields('123'));
    await h.settle();
    const ref = await h.call('CARDREF', {
      client_orderid: coid('ref'),
      orderid: sale.orderId ?? '',
    });
    const id = coid('rp');
    await h.call('CREATE_RP_V4', {
      client_orderid: id,
      amount: '9.99',
      currency: 'EUR',
      period: 'day',
      interval: '7',
      'repeats-number': '3',
      cardrefid: ref.cardRefId ?? '',
      server_callback_url: receiver.url,
    });
    const charges = () =>
      h.sandbox
        .orders()
        .filter((o) => o.kind === 'recurring' && o.clientOrderId.startsWith(`${id}/`));
    h.sandbox.clock.advance(6 * 86_400_000);
    await h.sandbox.runDueWork();
    expect(charges()).toHaveLength(0);
    h.sandbox.clock.advance(86_400_000);
    await h.settle();
    expect(charges().map((c) => [c.clientOrderId, c.status, c.amountMinor])).toEqual([
      [`${id}/1`, 'approved', 999n],
    ]);
    expect(
      receiver.hits.some(
        (u) =>
          u.searchParams.get('client_orderid') === `${id}/1` &&
          u.searchParams.get('type') === 'recurring',
      ),
    ).toBe(true);
    h.sandbox.clock.advance(60 * 86_400_000);
    await h.settle();
    expect(charges().map((c) => c.clientOrderId)).toEqual([`${id}/1`, `${id}/2`, `${id}/3`]);
  });

  it('charges monthly from start-date, from a card given directly', async () => {
    const today = new Date(h.sandbox.clock.now()).toISOString().slice(0, 10);
    const id = coid('rpm');
    await h.call('CREATE_RP_V4', {
      client_orderid: id,
      amount: '4.50',
      currency: 'EUR',
      period: 'month',
      interval: '1',
      'start-date': today,
      ...CARD,
      cvv2: '123',
    });
    await h.settle();
    const charges = () => h.sandbox.orders().filter((o) => o.clientOrderId.startsWith(`${id}/`));
    expect(charges()).toHaveLength(1);
    h.sandbox.clock.advance(31 * 86_400_000);
    await h.settle();
    expect(charges()).toHaveLength(2);
    await expect(
      h.call('CREATE_RP_V4', {
        client_orderid: coid(),
        amount: '1.00',
        currency: 'EUR',
        period: 'month',
        interval: '1',
        'start-date': '2001-01-01',
        ...CARD,
      }),
    ).rejects.toThrow(/in the past/);
  });
});

describe('the deployed key=value layout', () => {
  it("is read by the client's second parser, for answers and refusals", async () => {
    h.sandbox.addMerchant({
      login: 'lines-merchant',
      controlKey: 'LINES-KEY',
      endpointId: '3333',
      responseFormat: 'lines',
    });
    const credentials = {
      ...h.credentials,
      login: 'lines-merchant',
      controlKey: 'LINES-KEY',
      endpointId: '3333',
    };
    const client = new GatewayClient(credentials);
    const fields = saleFields('123', { order_desc: 'Two items & a gift' });
    const raw = await sendRaw(buildRequest('SALE', fields, credentials));
    expect(raw.contentType).toBe('text/html; charset=utf-8');
    expect(raw.body).toMatch(
      /^type=async-response\n&serial-number=[0-9a-f-]+\n&merchant-order-id=/,
    );
    const status = await client.status({ client_orderid: fields.client_orderid });
    expect(status).toMatchObject({
      status: 'processing',
      transactionType: 'sale',
      amount: '10.42',
    });
    await h.settle();
    expect((await client.status({ client_orderid: fields.client_orderid })).status).toBe(
      'approved',
    );
    await expect(
      client.call('CAPTURE', { client_orderid: coid(), orderid: status.orderId ?? '' }),
    ).rejects.toThrow(/settles a preauth/);
  });
});

describe('misbehaviour switches', () => {
  it('fails a share of requests with 500 before recording anything', async () => {
    h.sandbox.misbehave({ serverErrorShare: 0.5, operations: ['SALE'] });
    const results = [];
    for (let i = 0; i < 4; i++) {
      const fields = saleFields('123');
      const outcome = await h.call('SALE', fields).then(
        () => 'ok',
        (e: unknown) => e,
      );
      results.push({ fields, outcome });
    }
    h.sandbox.misbehave({});
    const failed = results.filter((r) => r.outcome !== 'ok');
    expect(failed).toHaveLength(2);
    for (const { fields, outcome } of failed) {
      expect(outcome).toBeInstanceOf(ServerError);
      expect((outcome as ServerError).gatewayCode).toBe('101');
      await expect(h.client.status({ client_orderid: fields.client_orderid })).rejects.toThrow(
        /No order with client_orderid/,
      );
    }
  });

  it('drops the answer after the order was recorded; status by client_orderid finds it', async () => {
    h.sandbox.misbehave({ dropAnswerShare: 1, operations: ['SALE'] });
    const fields = saleFields('123');
    const error: unknown = await h.call('SALE', fields).catch((e: unknown) => e);
    h.sandbox.misbehave({});
    expect(error).toBeInstanceOf(TransportError);
    const status = await h.client.status({ client_orderid: fields.client_orderid });
    expect(status.status).toBe('processing');
    // Sending the same request again gets the first answer, not a second order.
    const again = await h.call('SALE', fields);
    expect(again.orderId).toBe(status.orderId);
  });

  it('counts every request that arrived, answered or not', async () => {
    const sales = h.sandbox.received('SALE');
    const statuses = h.sandbox.received('STATUS');
    h.sandbox.misbehave({ dropAnswerShare: 1, operations: ['SALE'] });
    const fields = saleFields('123');
    await expect(h.call('SALE', fields)).rejects.toThrow(TransportError);
    h.sandbox.misbehave({ serverErrorShare: 1, operations: ['SALE'] });
    await expect(h.call('SALE', saleFields('123'))).rejects.toThrow(ServerError);
    h.sandbox.misbehave({});
    await h.client.status({ client_orderid: fields.client_orderid });
    expect(h.sandbox.received('SALE')).toBe(sales + 2);
    expect(h.sandbox.received('STATUS')).toBe(statuses + 1);
  });

  it('adds latency without changing the answer', async () => {
    h.sandbox.misbehave({ latencyMs: 30 });
    expect((await h.call('SALE', saleFields('123'))).type).toBe('async-response');
    h.sandbox.misbehave({});
    expect(() => h.sandbox.misbehave({ serverErrorShare: 2 })).toThrow(/between 0 and 1/);
  });
});

describe('seed and prefix', () => {
  it('--seed demo gives a new user orders to look up, capture and refund at once', async () => {
    const sandbox = await startSandbox({
      prefix: '/gw',
      seed: 'demo',
      delayMs: 0,
      merchants: [{ login: 'demo', controlKey: 'DEMO-KEY', endpointId: '4444' }],
    });
    try {
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gw$/);
      const client = new GatewayClient({
        baseUrl: sandbox.baseUrl,
        endpointId: '4444',
        login: 'demo',
        controlKey: 'DEMO-KEY',
      });
      const stage = async (id: string) => (await client.status({ client_orderid: id })).orderStage;
      expect(await stage('demo-sale-1003')).toBe('sale_approved');
      expect(await stage('demo-sale-1002')).toBe('sale_partially_reversed');
      expect((await client.status({ client_orderid: 'demo-sale-1004' })).status).toBe('declined');
      expect(await stage('demo-sale-1006')).toBe('sale_3d_method');
      expect(await stage('demo-sale-1008')).toBe('sale_voided');
      const kinds = new Set(sandbox.orders().map((o) => `${o.kind}:${o.status}`));
      for (const k of [
        'sale:approved',
        'sale:declined',
        'sale:processing',
        'preauth:approved',
        'reversal:approved',
        'capture:approved',
        'payout:approved',
      ]) {
        expect(kinds.has(k)).toBe(true);
      }
      const partly = sandbox.orders().find((o) => o.clientOrderId === 'demo-sale-1001');
      expect(partly?.orderStage).toBe('sale_partially_reversed');
      const auth = await client.status({ client_orderid: 'demo-auth-2002' });
      const cap = await client.call('CAPTURE', {
        client_orderid: 'first-capture',
        orderid: auth.orderId ?? '',
      });
      await sandbox.runDueWork();
      expect((await client.status({ orderid: cap.orderId })).status).toBe('approved');
    } finally {
      await sandbox.close();
    }
  });
});

describe('state in a SQLite file', () => {
  it('survives a restart: orders are still there and the seed is not made twice', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'sandbox-db-')), 'sandbox.sqlite');
    const merchants = [{ login: 'demo', controlKey: 'DEMO-KEY', endpointId: '4444' }];
    const first = await startSandbox({ database, merchants, seed: 'demo', delayMs: 0 });
    const credentials = { endpointId: '4444', login: 'demo', controlKey: 'DEMO-KEY' };
    const fields = saleFields('123');
    const sale = await new GatewayClient({ ...credentials, baseUrl: first.baseUrl }).call(
      'SALE',
      fields,
    );
    const count = first.orders().length;
    await first.close();

    const second = await startSandbox({ database, merchants, seed: 'demo', delayMs: 0 });
    try {
      const client = new GatewayClient({ ...credentials, baseUrl: second.baseUrl });
      expect(await client.status({ client_orderid: fields.client_orderid })).toMatchObject({
        orderId: sale.orderId,
        status: 'approved',
      });
      expect(second.orders()).toHaveLength(count);
      const next = await client.call('SALE', saleFields('123'));
      expect(BigInt(next.orderId ?? '0')).toBeGreaterThan(BigInt(sale.orderId ?? '0'));
    } finally {
      await second.close();
    }
  });
});
