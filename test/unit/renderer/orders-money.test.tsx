// The Orders screen's only arithmetic: comparing a typed amount with what is left, in integer
// minor units of the order's currency from the text; and the #/lookup/<ref> parameter's two kinds of order reference.

import { describe, expect, it } from 'vitest';

import {
  amountProblem,
  minorOf,
  normalisedAmount,
  showMoney,
} from '../../../renderer/src/money/amount';
import { parseRef, refParam } from '../../../renderer/src/screens/orders/ref';

describe('minor units', () => {
  it('reads decimal text exactly, with the decimals of the currency', () => {
    expect(minorOf('10.42', 'EUR')).toBe(1042n);
    expect(minorOf('10.4', 'EUR')).toBe(1040n);
    expect(minorOf('7', 'EUR')).toBe(700n);
    expect(minorOf(' 0.01 ', 'EUR')).toBe(1n);
    expect(minorOf('9999999999999.99', 'EUR')).toBe(999999999999999n);
    expect(minorOf('5000', 'JPY')).toBe(5000n);
    expect(minorOf('12.345', 'KWD')).toBe(12345n);
    expect(minorOf('12.3', 'KWD')).toBe(12300n);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', '1.005', '1,5', '-1', '01', '1e3', '.5', '1.', 'NaN'])
      expect(minorOf(text, 'EUR')).toBeUndefined();
    expect(minorOf('0.50', 'JPY')).toBeUndefined();
    expect(minorOf('1.2345', 'KWD')).toBeUndefined();
  });
});

describe('amounts as confirmed and shown', () => {
  it('normalises what the clerk typed to what is sent', () => {
    expect(normalisedAmount(' 12 ', 'USD')).toBe('12.00');
    expect(normalisedAmount('12.5', 'EUR')).toBe('12.50');
    expect(normalisedAmount('5000', 'JPY')).toBe('5000');
    expect(normalisedAmount('12.3', 'KWD')).toBe('12.300');
  });
  it('shows thousands separators, never changing the digits', () => {
    expect(showMoney('1234567.50')).toBe('1,234,567.50');
    expect(showMoney('5000')).toBe('5,000');
    expect(showMoney('12.345')).toBe('12.345');
    expect(showMoney('999.99')).toBe('999.99');
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
  it('names the amount to write when it has thousands separators or a decimal comma', () => {
    expect(amountProblem('1,234.50', undefined, 'EUR')).toBe(
      'Write the amount without thousands separators: 1234.50.',
    );
    expect(amountProblem('5,000', undefined, 'JPY')).toBe(
      'Write the amount without thousands separators: 5000.',
    );
    expect(check('1,000')).toBe('Write the amount with a dot, for example 49.90.');
    expect(check('19,90')).toBe('Write the amount with a dot: 19.90.');
    expect(check('1,234.50')).toBe('Write the amount without thousands separators: 1234.50.');
  });
  it('says an amount is too large, not that it is badly written', () => {
    expect(check('12345678901234')).toMatch(/too large/);
    expect(amountProblem('99999999999999.00', undefined, 'EUR')).toMatch(/too large/);
  });
  it('knows a currency without decimals and one with three', () => {
    expect(amountProblem('0.50', '5000', 'JPY')).toBe(
      'JPY has no decimals: write whole units, for example 5000.',
    );
    expect(amountProblem('6000', '5000', 'JPY')).toBe(
      'That is more than what is left: at most 5,000 JPY.',
    );
    expect(amountProblem('5000', '5000', 'JPY')).toBeUndefined();
    expect(amountProblem('12.345', '12.345', 'KWD')).toBeUndefined();
    expect(amountProblem('12.3456', '12.345', 'KWD')).toMatch(/at most three decimals/);
    expect(amountProblem('12.346', '12.345', 'KWD')).toMatch(/more than what is left/);
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
