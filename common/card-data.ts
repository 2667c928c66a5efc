// Card data typed into free text. A clerk's note such as "card 4111 1111 1111 1111 cvv 123"
// must never reach the journal, an export or the gateway's `comment`: PCI DSS forbids storing a
// CVV at all and a full PAN outside the card vault. Every free-text field (reasons, notes,
// descriptions, comments, batch columns) is checked here, in the renderer's forms through the
// contract's schemas, and again in main before anything is stored or sent.
//
// What counts (docs/protocol.md, "Card data in free text"):
// - a card number: 13 to 19 digits that pass the Luhn check, written together or in groups
//   separated by single spaces or dashes ("4111 1111 1111 1111", "4111-1111-1111-1111").
//   Only whole groups are combined, so a longer reference number ("order 12345678901234567890")
//   is not read as a card number hidden inside it.
// - a security code: a CVV-like word (cvv, cvv2, cvc, cvc2, cid, csc, "security code") followed,
//   within a few characters, by 3 or 4 digits ("cvv 123", "CVC: 1234", "cvv2=123"). A bare
//   three-digit number is not refused: notes are full of them ("box 123").

export type CardDataKind = 'card-number' | 'security-code';

export interface CardDataFinding {
  kind: CardDataKind;
  /** A sentence for the clerk: what was found and what to do instead. */
  message: string;
}

const MIN_PAN = 13;
const MAX_PAN = 19;

/** Runs of digit groups joined by one space or dash: "4111 1111-1111 1111". */
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;
const SECURITY_CODE = /\b(?:cvv2?|cvc2?|cid|csc|security\s+code)\b\W{0,3}\d{3,4}\b/i;

/** The Luhn (mod 10) check every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function containsCardNumber(text: string): boolean {
  for (const run of text.matchAll(DIGIT_RUN)) {
    const groups = run[0].split(/[ -]/);
    // Every sequence of whole, consecutive groups whose digits add up to a card number's length.
    for (let start = 0; start < groups.length; start++) {
      let digits = '';
      for (let end = start; end < groups.length; end++) {
        digits += groups[end];
        if (digits.length > MAX_PAN) break;
        if (digits.length >= MIN_PAN && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}

/** The first kind of card data found in `text`, or null when it holds none. */
export function findCardData(text: string): CardDataFinding | null {
  if (containsCardNumber(text)) {
    return {
      kind: 'card-number',
      message:
        'This looks like a card number. Card numbers must not be written in notes, reasons or ' +
        'descriptions: remove it (the order id or the last four digits identify the card).',
    };
  }
  if (SECURITY_CODE.test(text)) {
    return {
      kind: 'security-code',
      message:
        'This looks like a card security code (CVV/CVC). It must never be written down: remove it.',
    };
  }
  return null;
}
