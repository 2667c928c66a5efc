// A currency's decimals come from a table (no ICU data loaded at start); it must say what Intl
// says, for every code, or amounts would be read with the wrong number of decimals.

import { describe, expect, it } from 'vitest';

import { currencyExponent } from '../../../common/money';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function intlExponent(code: string): number | undefined {
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
    .maximumFractionDigits;
}

describe('currencyExponent', () => {
  it('agrees with Intl.NumberFormat for every three-letter code', () => {
    const differ: string[] = [];
    for (const a of LETTERS)
      for (const b of LETTERS)
        for (const c of LETTERS) {
          const code = a + b + c;
          if (currencyExponent(code) !== intlExponent(code)) differ.push(code);
        }
    expect(differ).toEqual([]);
  });

  it('reads the code without case or surrounding space, and takes 2 for a malformed one', () => {
    expect(currencyExponent(' jpy ')).toBe(0);
    expect(currencyExponent('kwd')).toBe(3);
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('')).toBe(2);
    expect(currencyExponent(null)).toBe(2);
    expect(currencyExponent('EURO')).toBe(2);
  });
});
