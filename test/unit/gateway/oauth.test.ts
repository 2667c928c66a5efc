import { createHmac, generateKeyPairSync, verify as cryptoVerify } from 'node:crypto';

import fc from 'fast-check';
import forge from 'node-forge';
import OAuth from 'oauth-1.0a';
import { beforeAll, describe, expect, it } from 'vitest';

import { InputError } from '../../../main/gateway/errors';
import {
  authorizationHeader,
  freshNonce,
  hmacSha1Signature,
  loadRsaPrivateKey,
  normalizeParameters,
  normalizeUrl,
  parseAuthorizationHeader,
  percentEncode,
  queryPairs,
  rsaSha256Signature,
  signatureBaseString,
  type Pair,
} from '../../../main/gateway/oauth';
import { buildRequest, type Credentials } from '../../../main/gateway/request';

/** The oauth_* parameters Paydesk sent, typed for the independent library. */
const asOAuthData = (params: Record<string, string>) => ({ ...params }) as unknown as OAuth.Data;

describe("the notes' worked HMAC-SHA1 value", () => {
  const url = 'https://sandbox.payneteasy.com/paynet/api/v4/transfer-by-ref/1';
  const pairs = [
    ['client-order-id', '1234567890'],
    ['sending-card-ref-id', '7654321'],
    ['oauth_consumer_key', 'merchantlogin'],
    ['oauth_nonce', 'y3qlvMPky7g'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '1669966913'],
    ['oauth_version', '1.0'],
  ] as const;

  it('gives the published base string and signature', () => {
    const base = signatureBaseString('POST', url, pairs);
    expect(base).toBe(
      'POST&https%3A%2F%2Fsandbox.payneteasy.com%2Fpaynet%2Fapi%2Fv4%2Ftransfer-by-ref%2F1&client-order-id%3D1234567890%26oauth_consumer_key%3Dmerchantlogin%26oauth_nonce%3Dy3qlvMPky7g%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1669966913%26oauth_version%3D1.0%26sending-card-ref-id%3D7654321',
    );
    // The notes give the key with its '&' already appended: the control key plus an empty token secret.
    const signature = hmacSha1Signature(base, 'F9F65098-1111-1111-1111-621611111111');
    expect(signature).toBe('/QAeHeoXIwLjJlcxxqufMPgbst0=');
    expect(percentEncode(signature)).toBe('%2FQAeHeoXIwLjJlcxxqufMPgbst0%3D');
  });

  it('places the encoded signature in the Authorization header', () => {
    const header = authorizationHeader({
      oauth_consumer_key: 'merchantlogin',
      oauth_signature: '/QAeHeoXIwLjJlcxxqufMPgbst0=',
    });
    expect(header).toBe(
      'OAuth oauth_consumer_key="merchantlogin", oauth_signature="%2FQAeHeoXIwLjJlcxxqufMPgbst0%3D"',
    );
  });

  it('encodes a space twice in the base string (%2520)', () => {
    const base = signatureBaseString('POST', url, [['order_desc', 'two words']]);
    expect(base).toContain('order_desc%3Dtwo%2520words');
  });
});

describe('RFC 5849 examples', () => {
  it('section 3.4.1.1: the base string of the example request', () => {
    // POST /request?b5=%3D%253D&a3=a&c%40=&a2=r%20b, body c2&a3=2+q (form-decoded: "2 q").
    const base = signatureBaseString(
      'POST',
      'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b',
      [
        ['c2', ''],
        ['a3', '2 q'],
        ['oauth_consumer_key', '9djdj82h48djs9d2'],
        ['oauth_token', 'kkk9d7dh3k39sjv7'],
        ['oauth_signature_method', 'HMAC-SHA1'],
        ['oauth_timestamp', '137131201'],
        ['oauth_nonce', '7d8f3e4a'],
        ['oauth_signature', 'bYT5CMsGcbgUdFHObYMEfcx6bsw='], // excluded from the base string
      ],
    );
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });

  it('section 1.2: the HMAC-SHA1 signature of the photos request', () => {
    const base = signatureBaseString(
      'GET',
      'http://photos.example.net/photos?file=vacation.jpg&size=original',
      [
        ['oauth_consumer_key', 'dpf43f3p2l4k3l03'],
        ['oauth_token', 'nnch734d00sl2jdk'],
        ['oauth_signature_method', 'HMAC-SHA1'],
        ['oauth_timestamp', '137131202'],
        ['oauth_nonce', 'chapoH'],
      ],
    );
    expect(hmacSha1Signature(base, 'kd94hf93k423kf44', 'pfkkdhi9sl3r4s00')).toBe(
      'MdpQcU8iPSUjWoN/UDMsK2sui9I=',
    );
  });

  it('section 3.4.1.2: base string URIs', () => {
    expect(normalizeUrl('HTTP://EXAMPLE.COM:80/r%20v/X?id=123')).toBe('http://example.com/r%20v/X');
    expect(normalizeUrl('https://www.example.net:8080/?q=1')).toBe('https://www.example.net:8080/');
    expect(normalizeUrl('https://gate.example.com:443/paynet/api/v2/payout/1')).toBe(
      'https://gate.example.com/paynet/api/v2/payout/1',
    );
  });

  it('section 3.5.1: the Authorization header round-trips, realm included', () => {
    const header =
      'OAuth realm="Example", oauth_consumer_key="0685bd9184jfhq22", oauth_token="ad180jjd733klru7", ' +
      'oauth_signature_method="HMAC-SHA1", oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D", ' +
      'oauth_timestamp="137131200", oauth_nonce="4572616e48616d6d65724c61686176", oauth_version="1.0"';
    const params = parseAuthorizationHeader(header);
    expect(params).toMatchObject({
      realm: 'Example',
      oauth_signature: 'wOJIO9A2W5mFwDgiDvZbTSMK/PY=',
      oauth_version: '1.0',
    });
    const { realm, ...rest } = params;
    expect(parseAuthorizationHeader(authorizationHeader(rest, realm))).toEqual(params);
  });

  it('refuses a parameter given twice, so no reader can pick the value that was not signed', () => {
    const header =
      'OAuth oauth_consumer_key="shop", oauth_nonce="injected", oauth_nonce="4572616e48616d", ' +
      'oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131200", oauth_version="1.0"';
    expect(() => parseAuthorizationHeader(header)).toThrow(
      /gives oauth_nonce twice; every OAuth parameter must appear once/,
    );
  });

  it('percent-encodes per RFC 3986: only unreserved characters pass', () => {
    expect(percentEncode("A-Za-z0-9._~ !*'()&=+%/é")).toBe(
      'A-Za-z0-9._~%20%21%2A%27%28%29%26%3D%2B%25%2F%C3%A9',
    );
  });

  it('percent-encodes any text as RFC 3986 says, with or without characters to escape', () => {
    // Every char code from 0 to 127 is either one of the 66 unreserved or %XX, in any mix.
    const rfc3986 = (text: string) =>
      [...Buffer.from(text, 'utf8')]
        .map((byte) =>
          /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) && byte < 128
            ? String.fromCharCode(byte)
            : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
        )
        .join('');
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.stringMatching(/^[A-Za-z0-9._~-]*$/)),
        (text) => percentEncode(text) === rfc3986(text),
      ),
      { seed: 11, numRuns: 2000 },
    );
  });
});

// An independent OAuth 1.0a implementation from npm, used only here, checks what Paydesk signs.
function independentOAuth(method: 'HMAC-SHA1' | 'RSA-SHA256', secret: string) {
  return new OAuth({
    consumer: { key: 'merchantlogin', secret },
    signature_method: method,
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
}

/** Reads the signed parts of a request built by Paydesk. */
function signedParts(request: { url: string; headers: Record<string, string>; body: string }) {
  const header = parseAuthorizationHeader(request.headers.Authorization ?? '');
  const { oauth_signature: signature, ...oauth } = header;
  const data = Object.fromEntries(new URLSearchParams(request.body));
  return { signature: signature ?? '', oauth, data };
}

// Values with everything that trips encoders: spaces, & = + % ~, quotes, non-ASCII and emoji.
const trickyText = fc
  .string({
    unit: fc.constantFrom(...Array.from('aZ09 &=+%~*!\'()/?#[]@:;,"<>é€漢😀-._')),
    minLength: 1,
    maxLength: 24,
  })
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
const fieldName = fc.stringMatching(/^x_[a-z0-9_.-]{1,12}$/);
const extraFields = fc.dictionary(fieldName, trickyText, { maxKeys: 6 });

const hmacCredentials: Credentials = {
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '4242',
  login: 'merchantlogin',
  controlKey: 'F9F65098-1111-1111-1111-621611111111',
};

describe('property: HMAC-SHA1 requests verify with an independent implementation', () => {
  it('for random field sets', () => {
    fc.assert(
      fc.property(
        extraFields,
        trickyText,
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[A-Za-z0-9]+$/.test(s)),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (extra, desc, nonce, timestamp) => {
          const fields = {
            client_orderid: 'co-1',
            amount: '10.00',
            currency: 'EUR',
            order_desc: desc,
            ...extra,
          };
          const request = buildRequest('PAYOUT', fields, hmacCredentials, { nonce, timestamp });
          const { signature, oauth, data } = signedParts(request);
          expect(data).toEqual(fields); // the body carries exactly the fields, decoded back
          const theirs = independentOAuth('HMAC-SHA1', hmacCredentials.controlKey);
          // The library merges into the objects it is given: hand it copies.
          const theirBase = theirs.getBaseString(
            { url: request.url, method: 'POST', data: { ...data } },
            asOAuthData(oauth),
          );
          expect(
            signatureBaseString('POST', request.url, [
              ...Object.entries(data),
              ...Object.entries(oauth),
            ]),
          ).toBe(theirBase);
          expect(signature).toBe(
            theirs.getSignature(
              { url: request.url, method: 'POST', data: { ...data } },
              '',
              asOAuthData(oauth),
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('RSA-SHA256', () => {
  let pkcs8: string;
  let pkcs1: string;
  let publicPem: string;

  beforeAll(() => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pkcs8 = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    pkcs1 = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  });

  it('signatures from node:crypto verify with node-forge over the independently built base string', () => {
    const forgePublic = forge.pki.publicKeyFromPem(publicPem);
    fc.assert(
      fc.property(extraFields, fc.boolean(), (extra, usePkcs1) => {
        const fields = { client_orderid: 'co-9', amount: '55.00', currency: 'EUR', ...extra };
        const request = buildRequest('PAYOUT_V4_CHECK', fields, {
          ...hmacCredentials,
          privateKeyPem: usePkcs1 ? pkcs1 : pkcs8,
        });
        const { signature, oauth, data } = signedParts(request);
        expect(oauth.oauth_signature_method).toBe('RSA-SHA256');
        const base = independentOAuth('RSA-SHA256', '').getBaseString(
          { url: request.url, method: 'POST', data: { ...data } },
          asOAuthData(oauth),
        );
        const md = forge.md.sha256.create();
        md.update(base, 'utf8');
        expect(forgePublic.verify(md.digest().bytes(), forge.util.decode64(signature))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('signatures from node-forge verify with node:crypto, and both sign identically (PKCS#1 v1.5 is deterministic)', () => {
    const base =
      'POST&https%3A%2F%2Fgate.example.com%2Fapi%2Fv4%2Fpayout-check%2F1&a%3D%25E2%2582%25AC%2520x';
    const forgePrivate = forge.pki.privateKeyFromPem(pkcs8);
    const md = forge.md.sha256.create();
    md.update(base, 'utf8');
    const forgeSignature = forge.util.encode64(forgePrivate.sign(md));
    expect(
      cryptoVerify(
        'sha256',
        Buffer.from(base, 'utf8'),
        publicPem,
        Buffer.from(forgeSignature, 'base64'),
      ),
    ).toBe(true);
    expect(rsaSha256Signature(base, loadRsaPrivateKey(pkcs8))).toBe(forgeSignature);
  });

  it('refuses a key under 2048 bits, a non-RSA key, an encrypted key and a broken PEM', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => loadRsaPrivateKey(weak)).toThrow(/1024 bits; the gateway requires at least 2048/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => loadRsaPrivateKey(ec)).toThrow(/ec key.*use an RSA key/);
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({
        type: 'pkcs8',
        format: 'pem',
        cipher: 'aes-256-cbc',
        passphrase: 'secret',
      })
      .toString();
    expect(() => loadRsaPrivateKey(encrypted)).toThrow(
      /encrypted; import it in Keys with its passphrase/,
    );
    expect(() => loadRsaPrivateKey(pkcs8.replace(/[A-Za-z]{20}/, 'AAAAAAAAAAAAAAAAAAAA'))).toThrow(
      InputError,
    );
    expect(() => loadRsaPrivateKey('not a key')).toThrow(/not a PEM private key/);
    expect(() => loadRsaPrivateKey(publicPem)).toThrow(/not a PEM private key/);
  });
});

describe('the base string as section 3.4.1 writes it, whatever is kept between requests', () => {
  /** The section's steps one by one: each element of METHOD&URL&PARAMETERS encoded once. */
  const asWritten = (method: string, url: string, pairs: readonly Pair[]) =>
    [
      method.toUpperCase(),
      normalizeUrl(url),
      normalizeParameters([
        ...queryPairs(url),
        ...pairs.filter(([name]) => name !== 'oauth_signature' && name !== 'realm'),
      ]),
    ]
      .map(percentEncode)
      .join('&');
  const urls = fc.constantFrom(
    'https://gate.example.com/paynet/api/v4/create-card-ref/1111',
    'https://GATE.example.com:443/paynet/api/v2/status/1111',
    'http://127.0.0.1:8080/r%20v/X?b5=%3D%253D&a3=a&c%40=&a2=r%20b',
    'https://gate.example.com/p?x=%E6%BC%A2&y=a+b&x=1',
  );
  const pair = fc.tuple(
    fc.oneof(trickyText, fc.constantFrom('oauth_signature', 'realm')),
    trickyText,
  );

  it('for random parameters and URLs, each URL signed for many times', () => {
    fc.assert(
      fc.property(urls, fc.array(pair, { maxLength: 8 }), (url, pairs) => {
        expect(signatureBaseString('POST', url, pairs)).toBe(asWritten('POST', url, pairs));
        expect(signatureBaseString('get', url, pairs)).toBe(asWritten('get', url, pairs));
      }),
      { seed: 27, numRuns: 500 },
    );
  });

  it('writes the Authorization header with its realm first, then every parameter in order', () => {
    expect(
      authorizationHeader({ oauth_consumer_key: 'shop 1', oauth_signature: 'a+b/c=' }, 'Example'),
    ).toBe('OAuth realm="Example", oauth_consumer_key="shop%201", oauth_signature="a%2Bb%2Fc%3D"');
    expect(authorizationHeader({}, 'Example')).toBe('OAuth realm="Example"');
    expect(authorizationHeader({})).toBe('OAuth ');
  });

  it('gives every request a nonce of its own, 128 bits in hex, past any batch of random bytes', () => {
    const nonces = Array.from({ length: 2_000 }, () => freshNonce());
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
