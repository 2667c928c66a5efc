// The Orders screen's only arithmetic: comparing a typed amount with what is left, in integer
// cents from the text; and the #/lookup/<ref> parameter's two kinds of order reference.

import { describe, expect, it } from 'vitest';

import { amountProblem, cents } from '../../../renderer/src/screens/orders/money';
import { parseRef, refParam } from '../../../renderer/src/screens/orders/ref';

describe('cents', () => {
  it('reads decimal text exactly', () => {
    expect(cents('10.42')).toBe(1042n);
    expect(cents('10.4')).toBe(1040n);
    expect(cents('7')).toBe(700n);
    expect(cents(' 0.01 ')).toBe(1n);
    // 0.1 + 0.2 is no problem when there is no float.
    expect(cents('9999999999999.99')).toBe(999999999999999n);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', '1.005', '1,5', '-1', '01', '1e3', '.5', '1.', 'NaN'])
      expect(cents(text)).toBeUndefined();
  });
});

describe('amountProblem', () => {
  const check = (text: string) => amountProblem(text, '49.90', 'EUR');
  it('accepts up to what is left', () => {
    expect(check('49.90')).toBeUndefined();
    expect(check('49.9')).toBeUndefined();
    expect(check('0.01')).toBeUndefined();
  });
  it('says what is wrong', () => {
    expect(check('')).toBe('Enter an amount, at most 49.90 EUR.');
    expect(check('10.005')).toMatch(/at most two decimals/);
    expect(check('10,50')).toMatch(/with a dot/);
    expect(check('0')).toBe('The amount must be more than 0.00.');
    expect(check('49.91')).toBe('That is more than what is left: at most 49.90 EUR.');
    expect(check('abc')).toMatch(/digits and a dot/);
  });
});

describe('order references in the route', () => {
  it('takes digits for the gateway orderid and anything else for the client_orderid', () => {
    expect(parseRef('1000001')).toEqual({ kind: 'orderid', value: '1000001' });
    expect(parseRef('demo-sale-1001')).toEqual({ kind: 'client_orderid', value: 'demo-sale-1001' });
  });
  it('prefixes the kind only when the guess would be wrong', () => {
    expect(refParam({ kind: 'orderid', value: '1000001' })).toBe('1000001');
    expect(refParam({ kind: 'client_orderid', value: '12345' })).toBe('client:12345');
    expect(parseRef('client:12345')).toEqual({ kind: 'client_orderid', value: '12345' });
    expect(refParam({ kind: 'orderid', value: 'abc' })).toBe('orderid:abc');
    expect(parseRef('orderid:abc')).toEqual({ kind: 'orderid', value: 'abc' });
  });
});
