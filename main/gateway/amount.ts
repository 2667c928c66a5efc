// Money is never a float. An amount is the decimal text the user typed, validated once;
// minor units are computed from that text digit by digit, so 0.29 is 29 and never 28.999...

import { InputError } from './errors';

/** A validated amount: the text that travels in the body, and its integer minor units. */
export interface Amount {
  /** Major units as sent in the `amount` field, e.g. `10.42`, `10.5`, `10`. */
  readonly text: string;
  /** Integer minor units (cents) as used inside `control` strings, e.g. 1042n. */
  readonly minor: bigint;
}

// Integer part without leading zeros, up to two decimals. Thirteen integer digits is far above
// any card transaction and keeps every amount exactly representable wherever it is shown.
const AMOUNT_PATTERN = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/;

export function parseAmount(input: string, field = 'amount'): Amount {
  const text = input.trim();
  if (text === '') throw new InputError(`Enter an amount in ${field}, for example 10.42.`, field);
  if (text.startsWith('-')) {
    throw new InputError(
      `The ${field} ${JSON.stringify(input)} is negative; enter a positive amount.`,
      field,
    );
  }
  if (/^\d+\.\d{3,}$/.test(text)) {
    throw new InputError(
      `The ${field} ${JSON.stringify(input)} has more than two decimals; amounts are in major units with at most two decimals, for example 10.42.`,
      field,
    );
  }
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) {
    throw new InputError(
      `The ${field} ${JSON.stringify(input)} is not an amount; write it with digits and a dot, at most two decimals, for example 10.42.`,
      field,
    );
  }
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const minor = BigInt(whole) * 100n + BigInt(fraction);
  if (minor === 0n) {
    throw new InputError(`The ${field} is zero; enter an amount greater than 0.`, field);
  }
  return { text, minor };
}

/** Formats integer minor units as major-unit text with two decimals: 1050n -> "10.50". */
export function formatMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / 100n;
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${cents}`;
}

const CURRENCY_PATTERN = /^[A-Z]{3}$/;

export function parseCurrency(input: string, field = 'currency'): string {
  const text = input.trim();
  if (!CURRENCY_PATTERN.test(text)) {
    throw new InputError(
      `The ${field} ${JSON.stringify(input)} is not a currency code; use three capital letters, for example EUR or USD.`,
      field,
    );
  }
  return text;
}
