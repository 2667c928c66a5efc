import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { formatMinor, parseAmount, parseCurrency } from '../../../main/gateway/amount';
import { InputError } from '../../../main/gateway/errors';

describe('amounts: minor units from the decimal text', () => {
  it.each([
    ['10.42', 1042n],
    ['10.5', 1050n],
    ['10', 1000n],
    ['0.29', 29n], // 0.29 * 100 is 28.999999999999996 in floating point
    ['0.01', 1n],
    ['1.10', 110n],
    ['4.35', 435n], // 4.35 * 100 is 434.99999999999994
    ['9999999999999.99', 999999999999999n],
  ])('%s is %s minor units', (text, minor) => {
    expect(parseAmount(text).minor).toBe(minor);
    expect(parseAmount(text).text).toBe(text);
  });

  it('is exact for every amount with up to two decimals', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 99 }),
        fc.constantFrom(0, 1, 2),
        (whole, cents, decimals) => {
          fc.pre(whole > 0n || cents > 0);
          if (decimals === 1) fc.pre(cents % 10 === 0);
          if (decimals === 0) fc.pre(cents === 0);
          const text =
            decimals === 0
              ? `${whole}`
              : decimals === 1
                ? `${whole}.${cents / 10}`
                : `${whole}.${String(cents).padStart(2, '0')}`;
          const parsed = parseAmount(text);
          expect(parsed.minor).toBe(whole * 100n + BigInt(cents));
          expect(formatMinor(parsed.minor)).toBe(`${whole}.${String(cents).padStart(2, '0')}`);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['-5.00', /negative/],
    ['1.234', /more than two decimals/],
    ['1,00', /has a decimal comma; write it with a dot: 1\.00\./],
    ['1e3', /not an amount/],
    ['abc', /not an amount/],
    ['', /Enter an amount/],
    ['0', /zero/],
    ['0.00', /zero/],
    ['010.00', /not an amount/],
    ['.5', /not an amount/],
    ['10.', /not an amount/],
    ['Infinity', /not an amount/],
  ])('%j is refused with a message that says what to fix', (text, message) => {
    expect(() => parseAmount(text)).toThrow(InputError);
    expect(() => parseAmount(text)).toThrow(message);
  });

  it('refuses thousands separators and a decimal comma, naming the amount to write instead', () => {
    // A spreadsheet's or Paydesk's own figure pasted as it shows: never read as it seems.
    expect(() => parseAmount('1,234.50')).toThrow(
      'The amount "1,234.50" has thousands separators; write it as 1234.50.',
    );
    expect(() => parseAmount('1,234,567', 'refund amount')).toThrow(/write it as 1234567\./);
    expect(() => parseAmount('5,000', 'amount', 'JPY')).toThrow(/write it as 5000\./);
    // One group and no dot may be a decimal comma: the plain refusal, not a guess.
    expect(() => parseAmount('1,000')).toThrow(/not an amount/);
    // Nor a decimal comma that may be a thousands separator (three decimals in KWD).
    expect(() => parseAmount('12,345', 'amount', 'KWD')).toThrow(/not an amount/);
    expect(() => parseAmount('19,90', 'amount', 'EUR')).toThrow(
      'The amount "19,90" has a decimal comma; write it with a dot: 19.90.',
    );
    // The digits without their separators must still make an amount of the currency.
    expect(() => parseAmount('1,234.567')).toThrow(/more than two decimals/);
  });

  it('names the field that is wrong', () => {
    try {
      parseAmount('1.999', 'refund amount');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe('refund amount');
    }
  });

  it('reads each currency with its own decimals (ISO 4217, from Intl)', () => {
    expect(parseAmount('5000', 'amount', 'JPY').minor).toBe(5000n);
    expect(parseAmount('12.345', 'amount', 'KWD').minor).toBe(12345n);
    expect(parseAmount('10.42', 'amount', 'EUR').minor).toBe(1042n);
    expect(formatMinor(5000n, 'JPY')).toBe('5000');
    expect(formatMinor(12345n, 'KWD')).toBe('12.345');
    expect(formatMinor(5n, 'KWD')).toBe('0.005');
    expect(formatMinor(1050n, 'EUR')).toBe('10.50');
    expect(() => parseAmount('0.50', 'amount', 'JPY')).toThrow(
      /has decimals; JPY amounts have none/,
    );
    expect(() => parseAmount('1.2345', 'amount', 'KWD')).toThrow(/more than three decimals/);
  });

  it('says an amount is too large rather than badly written', () => {
    expect(() => parseAmount('12345678901234')).toThrow(/too large: at most 13 digits/);
  });

  it('accepts three-letter currency codes only', () => {
    expect(parseCurrency('EUR')).toBe('EUR');
    expect(() => parseCurrency('eur')).toThrow(/three capital letters/);
    expect(() => parseCurrency('EURO')).toThrow(InputError);
  });
});
