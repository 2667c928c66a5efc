import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  AuthError,
  ServerError,
  UnreadableResponseError,
  ValidationError,
} from '../../../main/gateway/errors';
import { parseBody } from '../../../main/gateway/answer-body';
import { readResponse } from '../../../main/gateway/response';

const JSON_TYPE = 'application/vnd.pay+json';

describe('the two wire formats carry the same fields', () => {
  const lines =
    'type=async-response\n&serial-number=00000000-0000-0000-0000-000002f7f33c\n&merchant-order-id=902B4FF5\n&paynet-order-id=1969596\n&end-point-id=1111\n';
  const json = JSON.stringify({
    type: 'async-response',
    'serial-number': '00000000-0000-0000-0000-000002f7f33c',
    'merchant-order-id': '902B4FF5',
    'paynet-order-id': '1969596',
    'end-point-id': '1111',
  });

  it('reads the deployed key=value layout and the JSON alike', () => {
    const a = readResponse(
      { status: 200, contentType: 'text/html;charset=utf-8', body: lines },
      'async-response',
    );
    const b = readResponse({ status: 200, contentType: JSON_TYPE, body: json }, 'async-response');
    expect(a).toEqual(b);
    expect(a).toMatchObject({ orderId: '1969596', clientOrderId: '902B4FF5', endpointId: '1111' });
  });

  it('decodes URL-encoded values (+ is a space) and trims them', () => {
    const body =
      'type=status-response\n&status=declined\n&error-message=Insufficient+funds%21\n&amount=10.50\n&paynet-order-id=5 \n';
    const status = readResponse({ status: 200, contentType: 'text/html', body }, 'status-response');
    expect(status).toMatchObject({
      status: 'declined',
      errorMessage: 'Insufficient funds!',
      amount: '10.50',
      orderId: '5',
    });
  });

  it('keeps a JSON number amount as its text, never a float', () => {
    const body =
      '{"type":"status-response","status":"approved","amount":10.10,"paynet-order-id":77}';
    const status = readResponse({ status: 200, contentType: JSON_TYPE, body }, 'status-response');
    expect(status.amount).toBe('10.10');
    expect(status.orderId).toBe('77');
  });

  it('reads only the top-level amount: a nested "amount" is not the order\'s', () => {
    const body =
      '{"type":"status-response","status":"approved","amount":10.10,"extra":{"amount":999},"paynet-order-id":77}';
    const status = readResponse({ status: 200, contentType: JSON_TYPE, body }, 'status-response');
    expect(status.amount).toBe('10.10');
    // The same when the nested one comes first, or sits in an array.
    const before =
      '{"extra":{"amount":999.99},"list":[{"amount":5}],"type":"status-response","status":"approved","amount":"7.00"}';
    expect(
      readResponse({ status: 200, contentType: JSON_TYPE, body: before }, 'status-response').amount,
    ).toBe('7.00');
    expect(status.fields).not.toHaveProperty('extra');
  });

  it('keeps every number exactly as written, wherever nested junk sits (property)', () => {
    const money = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.constantFrom('', '.0', '.10', '.5', '.99', '.000'),
      )
      .map(([whole, frac]) => `${whole}${frac}`);
    const junk = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ amount: 1e21, v }));
    fc.assert(
      fc.property(money, junk, fc.boolean(), (amount, nested, nestedFirst) => {
        const top = `"type":"status-response","status":"approved","amount":${amount}`;
        const body = nestedFirst ? `{"extra":${nested},${top}}` : `{${top},"extra":${nested}}`;
        const read = readResponse({ status: 200, contentType: JSON_TYPE, body }, 'status-response');
        return read.amount === amount;
      }),
      { seed: 9, numRuns: 500 },
    );
  });

  it('ignores __proto__ and constructor keys: no prototype is touched', () => {
    const body =
      '{"type":"status-response","status":"approved","__proto__":{"polluted":"yes","amount":"999"},"constructor":"x","amount":1.50}';
    const status = readResponse({ status: 200, contentType: JSON_TYPE, body }, 'status-response');
    expect(status.amount).toBe('1.50');
    expect(Object.keys(status.fields)).not.toContain('__proto__');
    expect(Object.keys(status.fields)).not.toContain('constructor');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const lines = parseBody('text/html', 'type=error\n&__proto__=x\n&constructor=y\n');
    expect(lines && Object.keys(lines)).toEqual(['type']);
  });

  it('ignores unsafe keys in an answer without numbers too: the map has no prototype', () => {
    // No number, so the answer's own parsed object becomes the field map: padded values are
    // trimmed and booleans written out in place, and nothing goes through __proto__.
    const body =
      '{"type":"status-response","status":" approved ","__proto__":" {\\"polluted\\":1} ","prototype":true,"constructor":"x","extra":null,"nested":{"amount":"9"},"test":false}';
    const status = readResponse({ status: 200, contentType: JSON_TYPE, body }, 'status-response');
    expect(status.status).toBe('approved');
    expect(Object.getPrototypeOf(status.fields)).toBeNull();
    expect(Object.keys(status.fields)).toEqual(['type', 'status', 'test']);
    expect(status.fields.test).toBe('false');
    expect('toString' in status.fields).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.isFrozen(status.fields)).toBe(true);
  });

  it('reads 3DS waiting fields and card details from a status', () => {
    const body = JSON.stringify({
      type: 'status-response',
      status: 'processing',
      'order-stage': 'sale_3d_validating',
      'redirect-to': 'https://acs.example.com/challenge/1',
      html: '<form></form>',
      bin: '444455',
      'last-four-digits': '1111',
      'card-type': 'VISA',
      'card-ref-id': '777001',
    });
    const status = readResponse({ status: 200, contentType: JSON_TYPE, body }, 'status-response');
    expect(status.redirectTo).toBe('https://acs.example.com/challenge/1');
    expect(status.card).toMatchObject({
      bin: '444455',
      lastFourDigits: '1111',
      cardType: 'VISA',
      cardRefId: '777001',
    });
  });

  it('picks the parser from the body when the content type says nothing', () => {
    expect(parseBody('', '{"type":"error"}')).toEqual({ type: 'error' });
    expect(parseBody('application/octet-stream', 'type=error\n')).toEqual({ type: 'error' });
    expect(parseBody('', '<html>502 Bad Gateway</html>')).toBeUndefined();
  });
});

describe('typed errors', () => {
  it('a 400 validation-error carries the gateway code and message', () => {
    const raw = {
      status: 400,
      contentType: JSON_TYPE,
      body: '{"type":"validation-error","error-message":"Field amount is required","error-code":"1"}',
    };
    expect(() => readResponse(raw, 'async-response')).toThrow(ValidationError);
    try {
      readResponse(raw, 'async-response');
    } catch (error) {
      expect(error).toMatchObject({
        gatewayCode: '1',
        gatewayMessage: 'Field amount is required',
        httpStatus: 400,
      });
      expect((error as Error).message).toMatch(
        /refused the request: Field amount is required \(error code 1\)/,
      );
    }
  });

  it('a validation-error answered with 200 by a deployed gateway is still an error', () => {
    const raw = {
      status: 200,
      contentType: 'text/html',
      body: 'type=validation-error\n&error-message=Invalid+control\n&error-code=2\n',
    };
    expect(() => readResponse(raw, 'status-response')).toThrow(/Invalid control/);
  });

  it('403 is an authentication failure that says what to check', () => {
    expect(() =>
      readResponse({ status: 403, contentType: '', body: '' }, 'async-response'),
    ).toThrow(AuthError);
    expect(() =>
      readResponse({ status: 403, contentType: '', body: '' }, 'async-response'),
    ).toThrow(/control key/);
  });

  it('500 with an error body is a server error that tells the clerk to look the order up', () => {
    const raw = {
      status: 500,
      contentType: JSON_TYPE,
      body: '{"type":"error","error-message":"Internal error","error-code":"500"}',
    };
    expect(() => readResponse(raw, 'async-response')).toThrow(ServerError);
    expect(() => readResponse(raw, 'async-response')).toThrow(/look the order up/);
  });

  it('an HTML error page, an empty body, a wrong type or an unknown status are unreadable', () => {
    expect(() =>
      readResponse(
        { status: 200, contentType: 'text/html', body: '<html>oops</html>' },
        'async-response',
      ),
    ).toThrow(UnreadableResponseError);
    expect(() =>
      readResponse({ status: 200, contentType: JSON_TYPE, body: '' }, 'async-response'),
    ).toThrow(/body is empty/);
    expect(() =>
      readResponse(
        { status: 404, contentType: 'text/html', body: '<h1>Not found</h1>' },
        'async-response',
      ),
    ).toThrow(/base URL and endpoint id/);
    expect(() =>
      readResponse(
        { status: 200, contentType: JSON_TYPE, body: '{"type":"async-response"}' },
        'status-response',
      ),
    ).toThrow(/expected type status-response, got async-response/);
    expect(() =>
      readResponse(
        { status: 200, contentType: JSON_TYPE, body: '{"type":"status-response","status":"done"}' },
        'status-response',
      ),
    ).toThrow(/not one the gateway defines/);
    expect(() =>
      readResponse(
        { status: 200, contentType: JSON_TYPE, body: '{"type":"async-form-response"}' },
        'async-form-response',
      ),
    ).toThrow(/has no redirect-url/);
  });
});

describe('a field named twice', () => {
  const read = (contentType: string, body: string) =>
    readResponse({ status: 200, contentType, body }, 'status-response');

  it('with different values in the JSON makes the answer unreadable, never its last value', () => {
    const body = '{"type":"status-response","status":"declined","status":"approved"}';
    expect(() => read(JSON_TYPE, body)).toThrow(UnreadableResponseError);
    expect(() => read(JSON_TYPE, body)).toThrow(/"status" twice with different values/);
    expect(parseBody(JSON_TYPE, body)).toBeUndefined();
  });

  it('is seen through escapes, numbers and nesting in the JSON', () => {
    // The same name written with an escape is the same field to JSON.parse.
    const escaped = '{"type":"status-response","status":"declined","st\\u0061tus":"approved"}';
    expect(() => read(JSON_TYPE, escaped)).toThrow(/"status" twice/);
    const amounts = '{"type":"status-response","status":"approved","amount":49.90,"amount":4990}';
    expect(() => read(JSON_TYPE, amounts)).toThrow(/"amount" twice/);
    // A nested duplicate is not the order's: the nested object is ignored as it always is.
    const nested =
      '{"type":"status-response","extra":{"status":"x","status":"y","s":"\\"status\\":"},"status":"approved"}';
    expect(read(JSON_TYPE, nested).status).toBe('approved');
    // A value that is null once and a text once is two different answers too.
    const nullFirst =
      '{"type":"status-response","status":"approved","amount":null,"amount":"5.00"}';
    expect(() => read(JSON_TYPE, nullFirst)).toThrow(/"amount" twice/);
  });

  it('with the same value twice in the JSON is read as that value', () => {
    const body =
      '{"type":"status-response","status":"approved","amount":"10.10","status":" approved ","amount":10.10}';
    const status = read(JSON_TYPE, body);
    expect(status.status).toBe('approved');
    expect(status.amount).toBe('10.10');
  });

  it('with different values in the key=value layout makes the answer unreadable', () => {
    const body = 'type=status-response\n&status=declined\n&amount=10.00\n&status=approved\n';
    expect(() => read('text/html', body)).toThrow(UnreadableResponseError);
    expect(() => read('text/html', body)).toThrow(/"status" twice with different values/);
    expect(parseBody('text/html', body)).toBeUndefined();
    const type = 'type=status-response\n&status=approved\n&type=async-response\n';
    expect(() => read('text/html', type)).toThrow(/"type" twice/);
  });

  it('with the same value twice in the key=value layout is read as that value', () => {
    const body = 'type=status-response\n&status=approved\n&status=approved+\n&amount=1.00\n';
    expect(read('text/html', body)).toMatchObject({ status: 'approved', amount: '1.00' });
  });

  it('makes an error answer unreadable too: its code cannot be trusted', () => {
    const body =
      '{"type":"validation-error","error-code":"1","error-code":"2","error-message":"x"}';
    expect(() =>
      readResponse({ status: 400, contentType: JSON_TYPE, body }, 'status-response'),
    ).toThrow(UnreadableResponseError);
  });
});

describe('names given twice, against a plain reading of every member (property)', () => {
  it('finds a conflict exactly when one name has two different values', () => {
    const name = fc.constantFrom('status', 'amount', 'currency', 'a"b', 'x\\y');
    const value = fc.oneof(
      fc.constantFrom('approved', ' approved', 'declined', '10.10', ''),
      fc.constantFrom(10.1, 10, 0),
      fc.constantFrom(null, true, { status: 'nested', amount: 1 }, ['a', { b: '}' }]),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 8 }), (members) => {
        const text = `{ ${members.map(([n, v]) => `${JSON.stringify(n)} : ${JSON.stringify(v)}`).join(' ,\n')} }`;
        const read = (v: unknown) =>
          typeof v === 'string'
            ? `s${v.trim()}`
            : typeof v === 'number' || typeof v === 'boolean'
              ? `s${String(v)}`
              : `r${JSON.stringify(v)}`;
        const seen = new Map<string, string>();
        let expected = false;
        for (const [n, v] of members) {
          if (seen.has(n) && seen.get(n) !== read(v)) expected = true;
          seen.set(n, read(v));
        }
        const fields = parseBody(JSON_TYPE, text.replace('{', '{"type":"status-response",'));
        return (fields === undefined) === expected;
      }),
      { seed: 24, numRuns: 1000 },
    );
  });
});
