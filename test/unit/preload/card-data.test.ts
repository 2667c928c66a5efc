// Card data typed into free text is found, however it is written, and ordinary notes pass.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { findCardData, passesLuhn } from '../../../common/card-data';
import { actionRequestSchema } from '../../../common/contract';

/** Makes a Luhn-valid number of `length` digits from a random prefix. */
function withCheckDigit(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (passesLuhn(prefix + d)) return prefix + d;
  throw new Error('unreachable');
}

describe('card numbers in free text', () => {
  it.each([
    'card 4111111111111111 cvv 123',
    '4111 1111 1111 1111',
    'refund to 4111-1111-1111-1111 please',
    'Amex 3782 822463 10005',
    'pan:5555555555554444.',
    '19 digits 6011000990139424 ok? no: 4000056655665556',
    'Visa 13: 4222222222222',
    'two numbers 12 4111111111111111',
  ])('refuses %j', (text) => {
    expect(findCardData(text)?.kind).toBe('card-number');
  });

  it.each([
    'Customer returned the goods',
    'order 1234567, box 123',
    '4111111111111112 is not a card (Luhn fails)',
    'reference 12345678901234567890123 (a 23-digit number is no card number)',
    'call +49 30 1234 5678',
    'amount 1,234.56 EUR on 2026-11-23',
    '',
  ])('lets %j through', (text) => {
    expect(findCardData(text)).toBeNull();
  });

  it('finds any Luhn-valid 13-19 digit number, however grouped and wherever in the text', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 12, max: 18 })
          .chain((n) => fc.stringMatching(new RegExp(`^[1-9]\\d{${n - 1}}$`))),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(' ', '-'),
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '.', '(') }),
        fc.string({ unit: fc.constantFrom('x', 'y', ' ', ')', ',') }),
        (prefix, groupSizes, separator, before, after) => {
          const pan = withCheckDigit(prefix);
          const groups: string[] = [];
          let at = 0;
          for (const size of groupSizes) {
            if (at >= pan.length) break;
            groups.push(pan.slice(at, at + size));
            at += size;
          }
          if (at < pan.length) groups.push(pan.slice(at));
          const text = `${before}${groups.join(separator)}${after}`;
          expect(findCardData(text)?.kind).toBe('card-number');
        },
      ),
      { seed: 15_1, numRuns: 500 },
    );
  });
});

describe('security codes in free text', () => {
  it.each(['cvv 123', 'CVC: 1234', 'cvv2=123', 'the security code 999', 'CID 1234'])(
    'refuses %j',
    (text) => {
      expect(findCardData(text)?.kind).toBe('security-code');
    },
  );

  it.each(['cvv', 'csc was wrong', 'box 123', 'CVC check failed at the bank'])(
    'lets %j through',
    (text) => {
      expect(findCardData(text)).toBeNull();
    },
  );
});

describe('the action form', () => {
  it('refuses a note with a card number, saying why, on the note field', () => {
    const parsed = actionRequestSchema.safeParse({
      profileId: 'p',
      orderid: '1',
      clientOrderId: 'pd-abcdef',
      reason: 'Other',
      note: 'card 4111 1111 1111 1111',
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path).toEqual(['note']);
    expect(issue?.message).toMatch(/card number/);
  });
});
