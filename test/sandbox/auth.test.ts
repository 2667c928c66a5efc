// Strictness at the door: each tampering a careful gateway refuses (a field changed after
// signing, a wrong key, a stale timestamp, a replayed nonce, a wrong Accept), and proof with an
// independent OAuth implementation (oauth-1.0a from npm) that the sandbox verifies what any
// correct signer produces, not just what our own client happens to make.

import { createHmac, sign } from 'node:crypto';

import OAuth from 'oauth-1.0a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GatewayClient } from '../../main/gateway/client';
import { parseAuthorizationHeader } from '../../main/gateway/oauth';
import { buildRequest, encodeForm, type PreparedRequest } from '../../main/gateway/request';
import {
  CARD,
  CONTROL_KEY,
  coid,
  expectRefused,
  rsaKeyPair,
  saleFields,
  sendRaw,
  startHarness,
  type Harness,
} from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const now = () => Math.floor(Date.now() / 1000);
const payoutFields = () => ({
  client_orderid: coid('po'),
  amount: '120.00',
  currency: 'EUR',
  'destination-card-no': '4111111111111111',
});
const rsaFields = () => ({
  client_orderid: coid('poc'),
  amount: '55.00',
  currency: 'EUR',
  'destination-card-no': '4111111111111111',
});

function withBody(
  request: PreparedRequest,
  change: (params: URLSearchParams) => void,
): PreparedRequest {
  const params = new URLSearchParams(request.body);
  change(params);
  return { ...request, body: encodeForm([...params.entries()]) };
}

describe('Scheme A: the control checksum', () => {
  it('accepts a request signed by the client', async () => {
    expect((await sendRaw(buildRequest('SALE', saleFields('123'), h.credentials))).status).toBe(
      200,
    );
  });

  it('refuses a field changed after signing (403, error-code 11)', async () => {
    const tampered = withBody(buildRequest('SALE', saleFields('123'), h.credentials), (p) =>
      p.set('amount', '1.42'),
    );
    const answer = await sendRaw(tampered);
    expect(answer.status).toBe(403);
    expect(answer.fields).toMatchObject({ type: 'validation-error', 'error-code': '11' });
    expect(answer.fields['error-message']).toMatch(/control checksum does not match/);
  });

  it('refuses a checksum made with the wrong control key', async () => {
    const client = { ...h.credentials, controlKey: 'WRONG-KEY' };
    const answer = await sendRaw(buildRequest('SALE', saleFields('123'), client));
    expect([answer.status, answer.fields['error-code']]).toEqual([403, '11']);
    await expectRefused(
      new GatewayClient(client).call('SALE', saleFields('123')),
      403,
      '11',
      /control checksum/,
    );
  });

  it('refuses a request without control (400, error-code 1)', async () => {
    const answer = await sendRaw(
      withBody(buildRequest('SALE', saleFields('123'), h.credentials), (p) => p.delete('control')),
    );
    expect([answer.status, answer.fields['error-code']]).toEqual([400, '1']);
    expect(answer.fields['error-message']).toMatch(/control/);
  });

  it('refuses control in upper-case hex or with spaces around it (403, error-code 11)', async () => {
    // The notes write control as lowercase hex. A client that sends another form has a bug that
    // a production gateway may not forgive, so the sandbox does not either.
    const request = buildRequest('SALE', saleFields('123'), h.credentials);
    const control = new URLSearchParams(request.body).get('control') ?? '';
    expect(control).toMatch(/^[0-9a-f]{40}$/);
    for (const [form, why] of [
      [control.toUpperCase(), /upper-case hex/],
      [` ${control} `, /spaces around it/],
    ] as const) {
      const answer = await sendRaw(withBody(request, (p) => p.set('control', form)));
      expect([answer.status, answer.fields['error-code']]).toEqual([403, '11']);
      expect(answer.fields['error-message']).toMatch(/40 lowercase hex digits/);
      expect(answer.fields['error-message']).toMatch(why);
    }
    const sent = new URLSearchParams(request.body).get('client_orderid');
    expect(h.sandbox.orders().filter((o) => o.clientOrderId === sent)).toEqual([]);
  });

  it("refuses a login that is not the endpoint's, and an unknown endpoint (403, error-code 10)", async () => {
    const other = await sendRaw(
      buildRequest('STATUS', { client_orderid: 'x' }, { ...h.credentials, login: 'someone-else' }),
    );
    expect([other.status, other.fields['error-code']]).toEqual([403, '10']);
    const unknown = await sendRaw(
      buildRequest('SALE', saleFields('123'), { ...h.credentials, endpointId: '9999' }),
    );
    expect([unknown.status, unknown.fields['error-code']]).toEqual([403, '10']);
    expect(unknown.fields['error-message']).toMatch(/Endpoint 9999/);
  });
});

describe('Scheme B: OAuth 1.0a', () => {
  it('accepts HMAC-SHA1 and RSA-SHA256 requests signed by the client', async () => {
    expect((await sendRaw(buildRequest('PAYOUT', payoutFields(), h.credentials))).status).toBe(200);
    expect(
      (await sendRaw(buildRequest('PAYOUT_V4_CHECK', rsaFields(), h.credentials))).status,
    ).toBe(200);
  });

  it('refuses a field changed after signing, HMAC and RSA (403, error-code 12)', async () => {
    for (const request of [
      buildRequest('PAYOUT', payoutFields(), h.credentials),
      buildRequest('PAYOUT_V4_CHECK', rsaFields(), h.credentials),
    ]) {
      const answer = await sendRaw(withBody(request, (p) => p.set('amount', '999.00')));
      expect([answer.status, answer.fields['error-code']]).toEqual([403, '12']);
      expect(answer.fields['error-message']).toMatch(/changed after signing/);
    }
  });

  it('refuses a wrong control key (HMAC) and a key the gateway does not hold (RSA)', async () => {
    const hmac = await sendRaw(
      buildRequest('PAYOUT', payoutFields(), { ...h.credentials, controlKey: 'WRONG' }),
    );
    expect([hmac.status, hmac.fields['error-code']]).toEqual([403, '12']);
    const rsa = await sendRaw(
      buildRequest('PAYOUT_V4_CHECK', rsaFields(), {
        ...h.credentials,
        privateKeyPem: rsaKeyPair().privateKeyPem,
      }),
    );
    expect([rsa.status, rsa.fields['error-code']]).toEqual([403, '12']);
  });

  it('refuses a timestamp more than 5 minutes away, either way (403, error-code 13)', async () => {
    for (const timestamp of [now() - 301, now() + 400]) {
      const answer = await sendRaw(
        buildRequest('PAYOUT', payoutFields(), h.credentials, { timestamp }),
      );
      expect([answer.status, answer.fields['error-code']]).toEqual([403, '13']);
    }
    // Inside the window it is fine.
    expect(
      (
        await sendRaw(
          buildRequest('PAYOUT', payoutFields(), h.credentials, { timestamp: now() - 240 }),
        )
      ).status,
    ).toBe(200);
  });

  it('refuses a replayed nonce, even on a different request (403, error-code 14)', async () => {
    const request = buildRequest('PAYOUT', payoutFields(), h.credentials);
    expect((await sendRaw(request)).status).toBe(200);
    const again = await sendRaw(request);
    expect([again.status, again.fields['error-code']]).toEqual([403, '14']);
    const nonce = parseAuthorizationHeader(request.headers.Authorization ?? '').oauth_nonce;
    const other = await sendRaw(buildRequest('PAYOUT', payoutFields(), h.credentials, { nonce }));
    expect([other.status, other.fields['error-code']]).toEqual([403, '14']);
  });

  it('refuses an oauth_* parameter given twice in the header, even with the signed value last (403, error-code 12)', async () => {
    const request = buildRequest('PAYOUT', payoutFields(), h.credentials);
    const header = request.headers.Authorization ?? '';
    const doubled = header.replace(/oauth_nonce="/, 'oauth_nonce="not-signed", oauth_nonce="');
    expect(doubled).not.toBe(header);
    const answer = await sendRaw({
      ...request,
      headers: { ...request.headers, Authorization: doubled },
    });
    expect([answer.status, answer.fields['error-code']]).toEqual([403, '12']);
    expect(answer.fields['error-message']).toMatch(/oauth_nonce twice/);
    const sent = new URLSearchParams(request.body).get('client_orderid');
    expect(h.sandbox.orders().filter((o) => o.clientOrderId === sent)).toEqual([]);
  });

  it('refuses an unknown consumer key, a missing header and the wrong signature method', async () => {
    const unknown = await sendRaw(
      buildRequest('PAYOUT', payoutFields(), { ...h.credentials, login: 'nobody' }),
    );
    expect([unknown.status, unknown.fields['error-code']]).toEqual([403, '10']);
    const request = buildRequest('PAYOUT', payoutFields(), h.credentials);
    const { Authorization: _dropped, ...headers } = request.headers;
    const bare = await sendRaw({ ...request, headers });
    expect([bare.status, bare.fields['error-code']]).toEqual([403, '12']);
    expect(bare.fields['error-message']).toMatch(/Authorization: OAuth/);
    // An HMAC-SHA1 signature on an operation the gateway verifies with RSA-SHA256.
    const hmacOnRsa = buildRequest('PAYOUT', rsaFields(), h.credentials);
    const wrong = await sendRaw({
      ...hmacOnRsa,
      url: hmacOnRsa.url.replace('/api/v2/payout/', '/api/v4/payout-check/'),
    });
    expect([wrong.status, wrong.fields['error-code']]).toEqual([403, '12']);
    expect(wrong.fields['error-message']).toMatch(/RSA-SHA256/);
  });

  it('accepts oauth_* in the body instead of the header, and merged with it; refuses a conflict', async () => {
    const request = buildRequest('PAYOUT', payoutFields(), h.credentials);
    const oauth = parseAuthorizationHeader(request.headers.Authorization ?? '');
    const { Authorization: _moved, ...headers } = request.headers;
    const inBody = withBody({ ...request, headers }, (p) =>
      Object.entries(oauth).forEach(([k, v]) => p.append(k, v)),
    );
    expect((await sendRaw(inBody)).status).toBe(200);

    const both = buildRequest('PAYOUT', payoutFields(), h.credentials);
    const bothOauth = parseAuthorizationHeader(both.headers.Authorization ?? '');
    const merged = withBody(both, (p) => {
      p.append('oauth_nonce', bothOauth.oauth_nonce ?? '');
      p.append('oauth_timestamp', bothOauth.oauth_timestamp ?? '');
    });
    expect((await sendRaw(merged)).status).toBe(200);

    const conflict = withBody(buildRequest('PAYOUT', payoutFields(), h.credentials), (p) =>
      p.append('oauth_nonce', 'other'),
    );
    const answer = await sendRaw(conflict);
    expect([answer.status, answer.fields['error-code']]).toEqual([403, '12']);
  });

  it('refuses RSA operations for a merchant with no public key on file (403, error-code 15)', async () => {
    h.sandbox.addMerchant({ login: 'no-key', controlKey: 'K', endpointId: '2222' });
    const answer = await sendRaw(
      buildRequest('PAYOUT_V4_CHECK', rsaFields(), {
        ...h.credentials,
        login: 'no-key',
        controlKey: 'K',
        endpointId: '2222',
      }),
    );
    expect([answer.status, answer.fields['error-code']]).toEqual([403, '15']);
  });

  it('verifies signatures made by an independent implementation (oauth-1.0a), HMAC and RSA', async () => {
    const url = `${h.sandbox.baseUrl}/api/v2/payout/1111`;
    const hmac = new OAuth({
      consumer: { key: 'test-merchant', secret: CONTROL_KEY },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    const data = { ...payoutFields(), order_desc: 'Refund of deposit: 50% (café)' };
    const signed = hmac.toHeader(hmac.authorize({ url, method: 'POST', data }));
    const answer = await sendRaw({
      method: 'POST',
      url,
      headers: {
        Accept: 'application/vnd.pay+json',
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: signed.Authorization,
      },
      body: new URLSearchParams(data).toString(),
    });
    expect(answer.fields.type).toBe('async-response');

    const rsaUrl = `${h.sandbox.baseUrl}/api/v4/payout-check/1111`;
    const rsa = new OAuth({
      consumer: { key: 'test-merchant', secret: '' },
      signature_method: 'RSA-SHA256',
      hash_function: (base) =>
        sign('sha256', Buffer.from(base), h.keys.privateKeyPem).toString('base64'),
    });
    const rsaData = rsaFields();
    const rsaSigned = rsa.toHeader(rsa.authorize({ url: rsaUrl, method: 'POST', data: rsaData }));
    const rsaAnswer = await sendRaw({
      method: 'POST',
      url: rsaUrl,
      headers: {
        Accept: 'application/vnd.pay+json',
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: rsaSigned.Authorization,
      },
      body: new URLSearchParams(rsaData).toString(),
    });
    expect(rsaAnswer.fields.type).toBe('async-response');
  });
});

describe('the request itself', () => {
  it('refuses a wrong or missing Accept (400, error-code 3)', async () => {
    const request = buildRequest('SALE', saleFields('123'), h.credentials);
    for (const accept of [
      'application/json',
      '*/*',
      'application/vnd.pay+json, text/html',
      undefined,
    ]) {
      const headers: Record<string, string> = { ...request.headers };
      if (accept === undefined) delete headers.Accept;
      else headers.Accept = accept;
      const answer = await sendRaw({ ...request, headers });
      expect([answer.status, answer.fields.type, answer.fields['error-code']]).toEqual([
        400,
        'validation-error',
        '3',
      ]);
    }
  });

  it('refuses a body that is not a form, or that repeats a field (400, error-code 4)', async () => {
    const request = buildRequest('SALE', saleFields('123'), h.credentials);
    const json = await sendRaw({
      ...request,
      headers: { ...request.headers, 'Content-Type': 'application/json' },
    });
    expect([json.status, json.fields['error-code']]).toEqual([400, '4']);
    const twice = await sendRaw({ ...request, body: `${request.body}&amount=10.42` });
    expect([twice.status, twice.fields['error-code']]).toEqual([400, '4']);
  });

  it("refuses missing and malformed fields with the client's own messages (error-codes 1 and 2)", async () => {
    const missing = await sendRaw(
      withBody(buildRequest('SALE', saleFields('123'), h.credentials), (p) => p.delete('amount')),
    );
    expect([missing.status, missing.fields['error-code']]).toEqual([400, '1']);
    expect(missing.fields['error-message']).toBe(
      'SALE needs the field amount; fill it in and try again.',
    );
    for (const [name, value, why] of [
      ['amount', '10.421', /more than two decimals/],
      ['amount', '-5', /negative/],
      ['currency', 'euro', /currency code/],
      ['credit_card_number', '4444555566661112', /check digit/],
      ['email', 'not-an-email', /e-mail/],
    ] as const) {
      const answer = await sendRaw(
        withBody(buildRequest('SALE', saleFields('123'), h.credentials), (p) => p.set(name, value)),
      );
      expect([answer.status, answer.fields['error-code']]).toEqual([400, '2']);
      expect(answer.fields['error-message']).toMatch(why);
    }
  });

  it('answers 404 for an unknown operation and 405 for a GET', async () => {
    expect(
      (await fetch(`${h.sandbox.baseUrl}/api/v2/no-such-operation/1111`, { method: 'POST' }))
        .status,
    ).toBe(404);
    const get = await fetch(`${h.sandbox.baseUrl}/api/v2/sale/1111`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('keeps client and sandbox field rules identical: a card the client refuses, the sandbox refuses', async () => {
    expect(() =>
      buildRequest('SALE', { ...saleFields('123'), ...CARD, expire_month: '13' }, h.credentials),
    ).toThrow(/month/);
    const answer = await sendRaw(
      withBody(buildRequest('SALE', saleFields('123'), h.credentials), (p) =>
        p.set('expire_month', '13'),
      ),
    );
    expect(answer.fields['error-message']).toMatch(/month/);
  });
});
