// Money as decimal text and integer minor units, per currency: each currency has the number of
// decimals ISO 4217 gives it (JPY 0, EUR 2, KWD 3), as Intl.NumberFormat knows them. Shared by
// main (requests, checksums, the sandbox) and the renderer (forms, figures), so a JPY amount
// is "5,000 JPY" everywhere and a refund of 0.50 JPY is refused before it reaches a
// confirmation. Never a float: minor units come from the text's digits.

/** Thirteen integer digits is far above any card transaction and keeps every amount exact. */
export const MAX_WHOLE_DIGITS = 13;

/**
 * Every three-letter code whose decimals are not 2, as Intl.NumberFormat (ICU 78, CLDR 48) gives
 * them; every other code has 2. A table rather than Intl at run time: the first currency format
 * loads ICU's data (on the first start's path, through the sandbox's demo orders), and
 * main and the renderer (Chromium's own ICU) then always agree. test/unit/preload/money.test.ts
 * checks the table against this runtime's Intl for every code.
 */
const NOT_TWO_DECIMALS: ReadonlyMap<string, number> = new Map([
  ...[
    'ADP AFN ALL BIF BYR CLP COP DJF ESP GNF HUF IDR IQD IRR ISK ITL JPY KMF KPW KRW LAK LBP LUF',
    'MGA MGF MMK MRO PKR PYG RWF SLL SOS STD SYP TMM TRL UGX UYI VND VUV XAF XOF XPF YER ZMK ZWD',
  ]
    .join(' ')
    .split(' ')
    .map((code) => [code, 0] as const),
  ...'BHD JOD KWD LYD OMR TND'.split(' ').map((code) => [code, 3] as const),
  ['CLF', 4],
  ['UYW', 4],
]);

/**
 * Every code whose decimals are not 2, by its decimals (0, 3, 4): the journal's search by
 * amount reads "14.25" once per number of decimals and matches each reading only in the
 * currencies that have them (main/store/journal/filter.ts).
 */
export function codesByExponent(): ReadonlyMap<number, readonly string[]> {
  const groups = new Map<number, string[]>();
  for (const [code, exponent] of NOT_TWO_DECIMALS) {
    const group = groups.get(exponent) ?? [];
    group.push(code);
    groups.set(exponent, group);
  }
  return groups;
}

/**
 * Decimals of a currency (its ISO 4217 exponent as Intl has it); 2 for a missing or malformed
 * code, as the spec's "amount in cents" assumes.
 */
export function currencyExponent(currency: string | null | undefined): number {
  const code = (currency ?? '').trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return 2;
  return NOT_TWO_DECIMALS.get(code) ?? 2;
}

const WORDS = ['no', 'one', 'two', 'three', 'four'];
/** "at most two decimals" / "no decimals" for a currency, for messages. */
export function decimalsWords(exponent: number): string {
  return exponent === 0 ? 'no decimals' : `at most ${WORDS[exponent] ?? exponent} decimals`;
}

/** An example amount in the currency's shape: 10.42, 10, 10.425. */
export function exampleAmount(exponent: number): string {
  return exponent === 0 ? '1042' : `10.${'425'.slice(0, exponent).padEnd(exponent, '0')}`;
}

export type MoneyReading =
  | { ok: true; minor: bigint; /** Normalised text, as sent: 12 -> "12.00" (EUR). */ text: string }
  | { ok: false; problem: 'empty' | 'decimals' | 'too-large' | 'shape' | 'zero' }
  | {
      ok: false;
      problem: 'comma';
      /** The amount with a dot for its comma, when that is one: "19,90" -> "19.90". */
      dotted?: string;
    }
  | {
      ok: false;
      problem: 'separators';
      /** The same amount written as it must be: "1,234.50" -> "1234.50". */
      plain: string;
    };

/** Digits grouped by thousands with commas, as Paydesk's figures and spreadsheets show them. */
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** One group and no dot: "1,000" may as well be one euro with a decimal comma. */
const ONE_GROUP = /^\d{1,3},\d{3}$/;

/**
 * `text` without its thousands separators when it is digits grouped by them ("1,234.50",
 * "1,234,567"), or undefined. One group without a dot counts only where the currency has no
 * decimals (`noDecimals`): elsewhere it may be a decimal comma.
 */
export function withoutThousands(text: string, noDecimals = false): string | undefined {
  if (!GROUPED.test(text) || (!noDecimals && ONE_GROUP.test(text))) return undefined;
  return text.replaceAll(',', '');
}

/** Reads typed text as an amount of a currency with `exponent` decimals. */
export function readMoney(input: string, exponent: number): MoneyReading {
  const text = input.trim();
  if (text === '') return { ok: false, problem: 'empty' };
  // Refused, never read as the amount it seems to be: the fix is named, with the digits kept.
  const plain = withoutThousands(text, exponent === 0);
  if (plain !== undefined) {
    const reading = readMoney(plain, exponent);
    return reading.ok ? { ok: false, problem: 'separators', plain } : reading;
  }
  if (/^\d+,\d+$/.test(text)) {
    // A decimal comma, as in a semicolon-separated spreadsheet: refused, the dotted form named,
    // unless it may as well be a thousands separator (12,345 in a currency of three decimals).
    const dotted = text.replace(',', '.');
    return !ONE_GROUP.test(text) && readMoney(dotted, exponent).ok
      ? { ok: false, problem: 'comma', dotted }
      : { ok: false, problem: 'comma' };
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { ok: false, problem: 'shape' };
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (whole.length > 1 && whole.startsWith('0')) return { ok: false, problem: 'shape' };
  if (whole.length > MAX_WHOLE_DIGITS) return { ok: false, problem: 'too-large' };
  if (fraction.length > exponent) return { ok: false, problem: 'decimals' };
  const minor = BigInt(whole + fraction.padEnd(exponent, '0'));
  if (minor === 0n) return { ok: false, problem: 'zero' };
  return { ok: true, minor, text: minorToText(minor, exponent) };
}

/** Plain decimal text of minor units, as the gateway's `amount` field carries it: "1234.50". */
export function minorToText(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** Thousands separators for a figure on screen: "1234567.50" -> "1,234,567.50". */
export function groupThousands(text: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!match) return text;
  return `${match[1]}${match[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${match[3] ?? ''}`;
}
