import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isWellFormedText } from '../../../common/text-rules';

/** The language's own answer (ES2024): no lone surrogate anywhere in the string. */
const wellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

describe('isWellFormedText', () => {
  it('refuses a lone surrogate anywhere, accepts pairs and plain text', () => {
    expect(isWellFormedText('ord\uD800er')).toBe(false);
    expect(isWellFormedText('\uDC00')).toBe(false);
    expect(isWellFormedText('ab\uD800')).toBe(false);
    expect(isWellFormedText('\uDE00\uD83D')).toBe(false); // a pair in the wrong order
    expect(isWellFormedText('ord\uD83D\uDE00')).toBe(true);
    expect(isWellFormedText('Café à 5 €')).toBe(true);
    expect(isWellFormedText('')).toBe(true);
  });

  it('agrees with String.prototype.isWellFormed on any UTF-16 text (property)', () => {
    // Code units drawn so that surrogates, lone or paired, are frequent.
    const unit = fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.integer({ min: 0, max: 0xffff }),
      fc.constantFrom(0x41, 0xd83d, 0xde00),
    );
    const text = fc.array(unit, { maxLength: 12 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(text, (t) => isWellFormedText(t) === wellFormed(t)),
      { seed: 17, numRuns: 2000 },
    );
  });
});
