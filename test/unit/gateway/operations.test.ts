import { createHmac, generateKeyPairSync, verify } from 'node:crypto';

import OAuth from 'oauth-1.0a';
import { beforeAll, describe, expect, it } from 'vitest';

import { sha1Hex } from '../../../main/gateway/checksum';
import { InputError } from '../../../main/gateway/errors';
import { parseAuthorizationHeader } from '../../../main/gateway/oauth';
import {
  OPERATIONS,
  REQUEST_OPERATIONS,
  getOperation,
  type RequestOperation,
} from '../../../main/gateway/operations';
import { buildRequest, type Credentials } from '../../../main/gateway/request';
import { CONTROL_KEY, SAMPLE_FIELDS } from '../../support/samples';

/** The oauth_* parameters Paydesk sent, typed for the independent library. */
const asOAuthData = (params: Record<string, string>) => ({ ...params }) as unknown as OAuth.Data;

// Transcribed by hand from the Operations table of spec/gateway-api.md (and gateway-notes.md
// for get-card-info), independently of main/gateway/operations.ts: path, and for Scheme A the
// string the checksum is taken over. `c` is the amount in cents.
type Spec =
  | { path: string; method: 'control'; control: (f: Record<string, string>, c: string) => string }
  | { path: string; method: 'HMAC-SHA1' | 'RSA-SHA256' };
const E = '1111';
const L = 'merchantlogin';
const SPEC: Record<RequestOperation, Spec> = {
  TDS_UPLOAD_CRES_RESULT: {
    path: '/api/3ds/v1/upload-cres-result',
    method: 'control',
    control: (f) => L + f['client-order-id'] + f.orderid + CONTROL_KEY,
  },
  TDS_UPLOAD_METHOD_URL_RESULT: {
    path: '/api/3ds/v1/upload-method-url-result',
    method: 'control',
    control: (f) => L + f['client-order-id'] + f.orderid + CONTROL_KEY,
  },
  TDS_UPLOAD_PARES_RESULT: {
    path: '/api/3ds/v1/upload-pares-result',
    method: 'control',
    control: (f) => L + f['client-order-id'] + f.orderid + CONTROL_KEY,
  },
  ACCOUNT_VERIFICATION_FORM: {
    path: '/api/v2/account-verification-form',
    method: 'control',
    control: (f) => E + f.client_orderid + f.email + CONTROL_KEY,
  },
  ACCOUNT_VERIFICATION: {
    path: '/api/v2/account-verification',
    method: 'control',
    control: (f) => E + f.client_orderid + f.email + CONTROL_KEY,
  },
  CAPTURE: {
    path: '/api/v2/capture',
    method: 'control',
    control: (f, c) => L + f.client_orderid + f.orderid + c + f.currency + CONTROL_KEY,
  },
  CARDREF: {
    path: '/api/v2/create-card-ref',
    method: 'control',
    control: (f) => L + f.client_orderid + f.orderid + CONTROL_KEY,
  },
  CARDINFO: {
    path: '/api/v2/get-card-info',
    method: 'control',
    control: (f) => L + f.cardrefid + CONTROL_KEY,
  },
  REBILL: {
    path: '/api/v2/make-rebill',
    method: 'control',
    control: (f, c) => L + f.client_orderid + f.cardrefid + c + f.currency + CONTROL_KEY,
  },
  PAYMENTFORM: {
    path: '/api/v2/payment-form',
    method: 'control',
    control: (f, c) => E + f.client_orderid + c + f.email + CONTROL_KEY,
  },
  PAYOUTFORM: { path: '/api/v2/payout-form', method: 'HMAC-SHA1' },
  PAYOUT: { path: '/api/v2/payout', method: 'HMAC-SHA1' },
  PREAUTHFORM: {
    path: '/api/v2/preauth-form',
    method: 'control',
    control: (f, c) => E + f.client_orderid + c + f.email + CONTROL_KEY,
  },
  PREAUTH: {
    path: '/api/v2/preauth',
    method: 'control',
    control: (f, c) => E + f.client_orderid + c + f.email + CONTROL_KEY,
  },
  RETURN: {
    path: '/api/v2/return',
    method: 'control',
    control: (f, c) => L + f.client_orderid + f.orderid + c + f.currency + CONTROL_KEY,
  },
  SALEFORM: {
    path: '/api/v2/sale-form',
    method: 'control',
    control: (f, c) => E + f.client_orderid + c + f.email + CONTROL_KEY,
  },
  SALE: {
    path: '/api/v2/sale',
    method: 'control',
    control: (f, c) => E + f.client_orderid + c + f.email + CONTROL_KEY,
  },
  STATUS: {
    path: '/api/v2/status',
    method: 'control',
    control: (f) => L + f.client_orderid + f.orderid + CONTROL_KEY,
  },
  VOID: {
    path: '/api/v2/void',
    method: 'control',
    control: (f) => L + f.client_orderid + f.orderid + CONTROL_KEY,
  },
  CARDREF_V4: { path: '/api/v4/create-card-ref', method: 'RSA-SHA256' },
  CREATE_RP_V4: { path: '/api/v4/create-recurring-payment', method: 'RSA-SHA256' },
  PAYOUT_V4_CHECK: { path: '/api/v4/payout-check', method: 'RSA-SHA256' },
  PAYOUT_V4_PAY: { path: '/api/v4/payout-pay', method: 'RSA-SHA256' },
  PAN_ELIGIBILITY_SEND: { path: '/api/v2/pan-eligibility/send', method: 'HMAC-SHA1' },
  TRANSFER_V4: { path: '/api/v4/transfer', method: 'RSA-SHA256' },
  TRANSFER_BY_REF_V4: { path: '/api/v4/transfer-by-ref', method: 'RSA-SHA256' },
};

const cents = (amount: string | undefined) => {
  if (amount === undefined) return '';
  const [whole, fraction = ''] = amount.split('.');
  return String(Number(whole) * 100 + Number(fraction.padEnd(2, '0'))); // small test amounts only
};

let credentials: Credentials;
let publicPem: string;

beforeAll(() => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  credentials = {
    baseUrl: 'https://gate.example.com/paynet',
    endpointId: E,
    login: L,
    controlKey: CONTROL_KEY,
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
});

describe('the operation table', () => {
  it('has every RequestOperation of the spec and the three of its authentication examples', () => {
    expect([...OPERATIONS.keys()].sort()).toEqual(Object.keys(SPEC).sort());
    expect(OPERATIONS.size).toBe(26);
  });

  it('names no field both required and in a formula it cannot fill', () => {
    for (const def of OPERATIONS.values()) {
      if (def.auth.kind !== 'control') continue;
      for (const part of def.auth.formula) {
        if (['endpointId', 'login', 'merchant_control_key'].includes(part)) continue;
        const known =
          def.required.includes(part) ||
          def.optional.includes(part) ||
          (def.requiredOneOf ?? []).some((g) => g.includes(part));
        expect(known, `${def.name}: formula field ${part} is not a field of the operation`).toBe(
          true,
        );
      }
    }
  });
});

describe.each(REQUEST_OPERATIONS.map((op) => [op]))('%s request', (op) => {
  const fields = SAMPLE_FIELDS[op];
  const spec = SPEC[op];

  it('goes to the spec path under the base URL prefix, as a form POST asking for vnd.pay+json', () => {
    const request = buildRequest(op, fields, credentials, {
      nonce: 'n0nce',
      timestamp: 1669966913,
    });
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`https://gate.example.com/paynet${spec.path}/${E}`);
    expect(request.headers.Accept).toBe('application/vnd.pay+json');
    expect(request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
  });

  it('carries exactly the given fields plus what its scheme adds, signed as the spec says', () => {
    const request = buildRequest(op, fields, credentials, {
      nonce: 'n0nce',
      timestamp: 1669966913,
    });
    const body = Object.fromEntries(new URLSearchParams(request.body));
    if (spec.method === 'control') {
      const { control, login, ...rest } = body;
      expect(rest).toEqual(fields);
      expect(control).toBe(sha1Hex(spec.control(fields, cents(fields.amount))));
      expect(login === undefined || login === L).toBe(true);
      expect(request.headers.Authorization).toBeUndefined();
      return;
    }
    expect(body).toEqual(fields); // oauth_* travel in the header only
    const header = parseAuthorizationHeader(request.headers.Authorization ?? '');
    const { oauth_signature: signature = '', ...oauth } = header;
    expect(oauth).toEqual({
      oauth_consumer_key: L,
      oauth_nonce: 'n0nce',
      oauth_signature_method: spec.method,
      oauth_timestamp: '1669966913',
      oauth_version: '1.0',
    });
    const lib = new OAuth({
      consumer: { key: L, secret: CONTROL_KEY },
      signature_method: spec.method,
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    const request_data = { url: request.url, method: 'POST', data: { ...fields } };
    if (spec.method === 'HMAC-SHA1') {
      expect(signature).toBe(lib.getSignature(request_data, '', asOAuthData(oauth)));
    } else {
      const base = lib.getBaseString(request_data, asOAuthData(oauth));
      expect(
        verify('sha256', Buffer.from(base, 'utf8'), publicPem, Buffer.from(signature, 'base64')),
      ).toBe(true);
    }
  });

  it('refuses to build without each required field, naming it', () => {
    for (const name of getOperation(op).required) {
      const { [name]: _dropped, ...without } = fields;
      expect(() => buildRequest(op, without, credentials), name).toThrow(
        new RegExp(`needs the field ${name.replace(/[.-]/g, '\\$&')}`),
      );
    }
  });
});

describe('Scheme A details', () => {
  it('sends login in the body when its formula names it, and never the control key', () => {
    const status = buildRequest('STATUS', { client_orderid: 'a', orderid: '1' }, credentials);
    expect(new URLSearchParams(status.body).get('login')).toBe(L);
    const sale = buildRequest('SALE', SAMPLE_FIELDS.SALE, credentials);
    expect(new URLSearchParams(sale.body).has('login')).toBe(false);
    for (const op of REQUEST_OPERATIONS) {
      const request = buildRequest(op, SAMPLE_FIELDS[op], credentials);
      expect(request.body).not.toContain(CONTROL_KEY);
      expect(JSON.stringify(request.headers)).not.toContain(CONTROL_KEY);
    }
  });

  it('asks status by client_orderid alone, leaving orderid out of the checksum', () => {
    const body = new URLSearchParams(
      buildRequest('STATUS', { client_orderid: 'inv-7' }, credentials).body,
    );
    expect(body.get('control')).toBe(sha1Hex(L + 'inv-7' + CONTROL_KEY));
    expect(() => buildRequest('STATUS', {}, credentials)).toThrow(
      /needs one of orderid or client_orderid/,
    );
  });
});

describe('bad input is refused before anything is signed', () => {
  it('an unknown operation', () => {
    expect(() => buildRequest('REFUND' as RequestOperation, {}, credentials)).toThrow(
      /"REFUND" is not an operation of the gateway API/,
    );
  });

  it('a bad amount, a lone amount or currency on capture', () => {
    expect(() =>
      buildRequest('SALE', { ...SAMPLE_FIELDS.SALE, amount: '10.425' }, credentials),
    ).toThrow(/more than two decimals/);
    expect(() =>
      buildRequest('RETURN', { ...SAMPLE_FIELDS.RETURN, amount: '-1' }, credentials),
    ).toThrow(/negative/);
    const { currency: _c, ...noCurrency } = SAMPLE_FIELDS.CAPTURE;
    expect(() => buildRequest('CAPTURE', noCurrency, credentials)).toThrow(
      /amount and currency go together: add currency/,
    );
  });

  it('fields Paydesk computes itself', () => {
    expect(() =>
      buildRequest('VOID', { ...SAMPLE_FIELDS.VOID, control: 'abc' }, credentials),
    ).toThrow(/control is computed by Paydesk/);
    expect(() =>
      buildRequest('PAYOUT', { ...SAMPLE_FIELDS.PAYOUT, oauth_nonce: 'x' }, credentials),
    ).toThrow(/oauth_nonce is computed/);
  });

  it('field names are checked on every request, not only the first time', () => {
    // Names once accepted are remembered; a refused one never is, however often it comes.
    for (let i = 0; i < 3; i++) {
      expect(() => buildRequest('STATUS', { orderid: '1', control: 'abc' }, credentials)).toThrow(
        /control is computed by Paydesk/,
      );
      expect(() => buildRequest('STATUS', { orderid: '1', 'bad name': 'x' }, credentials)).toThrow(
        '"bad name" is not a valid field name.',
      );
      expect(() =>
        buildRequest('STATUS', { orderid: 1 as unknown as string }, credentials),
      ).toThrow('orderid must be text.');
      expect(buildRequest('STATUS', { orderid: ' 1 ' }, credentials).body).toMatch(/^orderid=1&/);
    }
  });

  it('card data a clerk mistyped', () => {
    expect(() =>
      buildRequest(
        'SALE',
        { ...SAMPLE_FIELDS.SALE, credit_card_number: '4444555566661112' },
        credentials,
      ),
    ).toThrow(/check digit/);
    expect(() =>
      buildRequest('SALE', { ...SAMPLE_FIELDS.SALE, expire_month: '13' }, credentials),
    ).toThrow(/01 to 12/);
    expect(() => buildRequest('SALE', { ...SAMPLE_FIELDS.SALE, cvv2: '12' }, credentials)).toThrow(
      /3 or 4 digits/,
    );
  });

  it('credentials: base URL, endpoint id, login, keys', () => {
    const bad = (patch: Partial<Credentials>) => () =>
      buildRequest('VOID', SAMPLE_FIELDS.VOID, { ...credentials, ...patch });
    expect(bad({ baseUrl: 'http://gate.example.com/paynet' })).toThrow(/plain http:\/\//);
    expect(bad({ baseUrl: 'gate.example.com' })).toThrow(/not a web address/);
    expect(bad({ baseUrl: 'ftp://gate.example.com' })).toThrow(/must start with https/);
    expect(bad({ endpointId: '12a' })).toThrow(/endpoint id/);
    expect(bad({ login: ' ' })).toThrow(/no merchant login/);
    expect(bad({ controlKey: '' })).toThrow(/no control key/);
    const { privateKeyPem: _k, ...noKey } = credentials;
    expect(() => buildRequest('PAYOUT_V4_CHECK', SAMPLE_FIELDS.PAYOUT_V4_CHECK, noKey)).toThrow(
      /generate or import one in Keys/,
    );
  });

  it('a signing key under 2048 bits', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    expect(() =>
      buildRequest('CARDREF_V4', SAMPLE_FIELDS.CARDREF_V4, { ...credentials, privateKeyPem: weak }),
    ).toThrow(/1024 bits; the gateway requires at least 2048/);
  });

  it('plain http is allowed to this machine only', () => {
    for (const baseUrl of [
      'http://127.0.0.1:18080/paynet',
      'http://localhost:1',
      'http://[::1]:8080',
    ]) {
      expect(() =>
        buildRequest('VOID', SAMPLE_FIELDS.VOID, { ...credentials, baseUrl }),
      ).not.toThrow();
    }
  });

  it('every refusal is an InputError that names what to fix', () => {
    try {
      buildRequest('SALE', { ...SAMPLE_FIELDS.SALE, email: 'nobody' }, credentials);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe('email');
    }
  });
});

describe('OAuth freshness', () => {
  it('uses a fresh nonce and the current time unless given', () => {
    const a = parseAuthorizationHeader(
      buildRequest('PAYOUT', SAMPLE_FIELDS.PAYOUT, credentials).headers.Authorization ?? '',
    );
    const b = parseAuthorizationHeader(
      buildRequest('PAYOUT', SAMPLE_FIELDS.PAYOUT, credentials).headers.Authorization ?? '',
    );
    expect(a.oauth_nonce).not.toBe(b.oauth_nonce);
    expect(Math.abs(Number(a.oauth_timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });
});

describe('recurring schedule fields', () => {
  it('refuse a start-date that is not a calendar date and a repeats-number that is not a count', () => {
    const base = SAMPLE_FIELDS.CREATE_RP_V4;
    expect(() =>
      buildRequest('CREATE_RP_V4', { ...base, 'start-date': '2030-02-30' }, credentials),
    ).toThrow(/YYYY-MM-DD/);
    expect(() =>
      buildRequest('CREATE_RP_V4', { ...base, 'start-date': '31.01.2030' }, credentials),
    ).toThrow(/YYYY-MM-DD/);
    expect(() =>
      buildRequest('CREATE_RP_V4', { ...base, 'repeats-number': '0' }, credentials),
    ).toThrow(/whole number of charges/);
    expect(() =>
      buildRequest(
        'CREATE_RP_V4',
        { ...base, 'start-date': '2030-01-31', 'repeats-number': '12' },
        credentials,
      ),
    ).not.toThrow();
  });
});
