// Paydesk's capture, return and void carry amount and currency in the form every reading of the
// checksum accepts (issue 10.6, docs/protocol.md). The checksum is checked against both
// readings, each computed here by hand from its formula: the spec's (a field not sent adds
// nothing) and the operator's PHP library's (Query/CaptureQuery.php: the order's amount in
// cents and currency always signed).

import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { InputError } from '../../../main/gateway/errors';
import { FOLLOW_UP_OPERATION, followUpFields } from '../../../main/gateway/follow-ups';
import { buildRequest } from '../../../main/gateway/request';
import { CONTROL_KEY } from '../../support/samples';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');
const credentials = {
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '1111',
  login: 'shop',
  controlKey: CONTROL_KEY,
};
const KEY = credentials.controlKey;

function sent(kind: 'capture' | 'refund' | 'cancel' | 'void', amountMinor?: bigint) {
  const fields = followUpFields({
    kind,
    clientOrderId: 'pd-abc123',
    orderid: '1000001',
    amountMinor,
    currency: 'EUR',
    ...(kind === 'capture' ? {} : { comment: 'Damaged' }),
  });
  const request = buildRequest(FOLLOW_UP_OPERATION[kind], fields, credentials);
  return { fields, body: Object.fromEntries(new URLSearchParams(request.body)), request };
}

describe('capture', () => {
  it('always carries amount and currency, so both readings sign the same string', () => {
    const { body, request } = sent('capture', 1042n);
    expect(request.url).toBe('https://gate.example.com/paynet/api/v2/capture/1111');
    expect(body).toMatchObject({ amount: '10.42', currency: 'EUR', login: 'shop' });
    // The spec's reading and the PHP library's agree once amount and currency are sent.
    expect(body.control).toBe(sha1(`shoppd-abc12310000011042EUR${KEY}`));
  });

  it('is refused before anything is built when Paydesk does not know what is left of the hold', () => {
    let error: unknown;
    try {
      followUpFields({ kind: 'capture', clientOrderId: 'pd-x1', orderid: '1', currency: 'EUR' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ field: 'amount' });
    expect((error as Error).message).toMatch(/Enter the amount to capture/);
    expect(() =>
      followUpFields({ kind: 'capture', clientOrderId: 'pd-x1', orderid: '1', amountMinor: 5n }),
    ).toThrow(/currency is not known/);
  });
});

describe('return', () => {
  it('carries amount and currency for a refund whose amount Paydesk knows', () => {
    const { body } = sent('refund', 229n);
    expect(body).toMatchObject({ amount: '2.29', currency: 'EUR', comment: 'Damaged' });
    expect(body.control).toBe(sha1(`shoppd-abc1231000001229EUR${KEY}`));
  });

  it("is sent without them when only the gateway knows what is left (the spec's form)", () => {
    const { body } = sent('refund');
    expect(body).not.toHaveProperty('amount');
    expect(body).not.toHaveProperty('currency');
    expect(body.control).toBe(sha1(`shoppd-abc1231000001${KEY}`));
  });

  it('cancels a hold with the amount still held and its currency, as the PHP library does', () => {
    const { body, request } = sent('cancel', 5000n);
    expect(request.url).toMatch(/\/api\/v2\/return\/1111$/);
    expect(body).toMatchObject({ amount: '50.00', currency: 'EUR', comment: 'Damaged' });
    expect(body.control).toBe(sha1(`shoppd-abc12310000015000EUR${KEY}`));
  });
});

describe('void', () => {
  it('never carries an amount', () => {
    const { body } = sent('void');
    expect(Object.keys(body).sort()).toEqual(
      ['client_orderid', 'comment', 'control', 'login', 'orderid'].sort(),
    );
    expect(() => sent('void', 100n)).toThrow(/void carries no amount/);
  });
});
