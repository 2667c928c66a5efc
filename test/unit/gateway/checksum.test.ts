import { describe, expect, it } from 'vitest';

import { callbackControl, verifyCallback } from '../../../main/gateway/callback';
import { controlChecksum, controlString, sha1Hex } from '../../../main/gateway/checksum';
import { getOperation } from '../../../main/gateway/operations';
import { buildRequest } from '../../../main/gateway/request';
import { CONTROL_KEY } from '../../support/samples';

// Worked values from spec/gateway-notes.md (and the operator's public documentation).

describe('Scheme A control checksum', () => {
  it("reproduces the notes' sale/preauth worked value", () => {
    const formula = getOperation('SALE').auth;
    if (formula.kind !== 'control') throw new Error('SALE must be control-signed');
    const inputs = {
      endpointId: '1111',
      login: 'unused',
      controlKey: CONTROL_KEY,
      fields: { client_orderid: '902B4FF5', amount: '10.42', email: 'john.smith@gmail.com' },
    };
    expect(controlString(formula.formula, inputs)).toBe(
      '1111902B4FF51042john.smith@gmail.comB17F59B4-A7DC-41B4-8FF9-37D986B43D20',
    );
    expect(controlChecksum(formula.formula, inputs)).toBe(
      'c6bdd88a78834ef4b863b088827a459f039e8257',
    );
  });

  it('puts the same worked value into a real sale request, and preauth signs the same way', () => {
    for (const op of ['SALE', 'PREAUTH'] as const) {
      const request = buildRequest(
        op,
        {
          client_orderid: '902B4FF5',
          amount: '10.42',
          currency: 'USD',
          email: 'john.smith@gmail.com',
          credit_card_number: '4444555566661111',
          card_printed_name: 'JOHN SMITH',
          expire_month: '12',
          expire_year: '2030',
          cvv2: '123',
        },
        {
          baseUrl: 'https://sandbox.example.com/paynet',
          endpointId: '1111',
          login: 'merchantlogin',
          controlKey: CONTROL_KEY,
        },
      );
      const body = new URLSearchParams(request.body);
      expect(body.get('control')).toBe('c6bdd88a78834ef4b863b088827a459f039e8257');
      expect(body.get('amount')).toBe('10.42'); // the field travels in major units
    }
  });

  it('is lowercase hex SHA-1 over UTF-8 (values from coreutils sha1sum and FIPS 180)', () => {
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1Hex('test string to sha1')).toBe('bd4c24bb656d161a66d89a45f50bf52cb7134851');
    expect(sha1Hex('Zürich-€')).toBe('390de8be17033a942037eb3853adeeef7d4f6d46');
  });

  it('leaves amount and currency out of capture and return when they are not sent', () => {
    for (const op of ['CAPTURE', 'RETURN'] as const) {
      const credentials = {
        baseUrl: 'https://gate.example.com',
        endpointId: '1',
        login: 'shop',
        controlKey: 'KEY',
      };
      const full = new URLSearchParams(
        buildRequest(op, { client_orderid: 'c1', orderid: '55' }, credentials).body,
      );
      expect(full.get('control')).toBe(sha1Hex('shopc155KEY'));
      expect(full.has('amount')).toBe(false);
      const partial = new URLSearchParams(
        buildRequest(
          op,
          { client_orderid: 'c1', orderid: '55', amount: '0.29', currency: 'EUR' },
          credentials,
        ).body,
      );
      expect(partial.get('control')).toBe(sha1Hex('shopc15529EURKEY'));
    }
  });

  it('writes the amount in the minor units of its currency (docs/protocol.md): JPY none, KWD three', () => {
    const credentials = {
      baseUrl: 'https://gate.example.com',
      endpointId: '1',
      login: 'shop',
      controlKey: 'KEY',
    };
    const control = (amount: string, currency: string) =>
      new URLSearchParams(
        buildRequest(
          'RETURN',
          { client_orderid: 'c1', orderid: '55', amount, currency },
          credentials,
        ).body,
      ).get('control');
    expect(control('5000', 'JPY')).toBe(sha1Hex('shopc1555000JPYKEY'));
    expect(control('12.345', 'KWD')).toBe(sha1Hex('shopc15512345KWDKEY'));
    expect(control('12.3', 'KWD')).toBe(sha1Hex('shopc15512300KWDKEY'));
    expect(() => control('0.50', 'JPY')).toThrow(/JPY amounts have none/);
    expect(() => control('1.2345', 'KWD')).toThrow(/more than three decimals/);
  });
});

describe('callbacks and browser returns', () => {
  it("reproduces the notes' callback worked value", () => {
    expect(
      callbackControl('approved', '123', 'invoice-1', 'AF4B5DE6-3468-424C-A922-C1DAD7CB4509'),
    ).toBe('5bc8ee48f9ba37c0fd1e0b052a9bc105c6df87e1');
  });

  const params = {
    status: 'approved',
    orderid: '123',
    client_orderid: 'invoice-1',
    merchant_order: 'invoice-1',
    type: 'sale',
    amount: '10.42',
    control: '5bc8ee48f9ba37c0fd1e0b052a9bc105c6df87e1',
  };
  const key = 'AF4B5DE6-3468-424C-A922-C1DAD7CB4509';

  it('accepts a genuine callback, in either letter case of the hex', () => {
    expect(verifyCallback(params, key)).toEqual({ valid: true });
    expect(verifyCallback({ ...params, control: params.control.toUpperCase() }, key)).toEqual({
      valid: true,
    });
  });

  it('refuses a changed status, order, key or a missing checksum', () => {
    expect(verifyCallback({ ...params, status: 'declined' }, key).valid).toBe(false);
    expect(verifyCallback({ ...params, orderid: '124' }, key).valid).toBe(false);
    expect(verifyCallback(params, 'AF4B5DE6-3468-424C-A922-C1DAD7CB4500').valid).toBe(false);
    const missing = verifyCallback({ ...params, control: undefined }, key);
    expect(missing).toEqual({ valid: false, reason: 'The callback has no control.' });
  });
});
