// Money is never a float. An amount is the decimal text the user typed, validated once;
// minor units are computed from that text digit by digit, so 0.29 is 29 and never 28.999...
// Each currency has its own number of decimals (ISO 4217): JPY none, EUR two, KWD three.

import {
  currencyExponent,
  decimalsWords,
  exampleAmount,
  MAX_WHOLE_DIGITS,
  minorToText,
  readMoney,
} from '../../common/money';
import { InputError } from './errors';

/** A validated amount: the text that travels in the body, and its integer minor units. */
export interface Amount {
  /** Major units as sent in the `amount` field, e.g. `10.42`, `10.5`, `10`, `5000` (JPY). */
  readonly text: string;
  /**
   * Integer minor units of the currency (ISO 4217 exponent: cents for EUR, yen for JPY, fils
   * for KWD) as used inside `control` strings, e.g. 1042n (docs/protocol.md, Scheme A).
   */
  readonly minor: bigint;
}

/**
 * Reads an amount of `currency` (two decimals when no currency is known). The exponent comes
 * from Intl (common/money.ts), so JPY takes no decimals and KWD three.
 */
export function parseAmount(input: string, field = 'amount', currency?: string | null): Amount {
  const text = input.trim();
  const exponent = currencyExponent(currency);
  const example = exampleAmount(exponent);
  const unit = currency ? `${currency} amounts` : 'amounts';
  if (text === '')
    throw new InputError(`Enter an amount in ${field}, for example ${example}.`, field);
  if (text.startsWith('-')) {
    throw new InputError(
      `The ${field} ${JSON.stringify(input)} is negative; enter a positive amount.`,
      field,
    );
  }
  const reading = readMoney(text, exponent);
  if (!reading.ok) {
    if (reading.problem === 'comma' && reading.dotted) {
      throw new InputError(
        `The ${field} ${JSON.stringify(input)} has a decimal comma; write it with a dot: ${reading.dotted}.`,
        field,
      );
    }
    switch (reading.problem) {
      case 'decimals':
        throw new InputError(
          exponent === 0
            ? `The ${field} ${JSON.stringify(input)} has decimals; ${unit} have none, for example ${example}.`
            : `The ${field} ${JSON.stringify(input)} has more than ${decimalsWords(exponent).replace('at most ', '')}; ${unit} are in major units with ${decimalsWords(exponent)}, for example ${example}.`,
          field,
        );
      case 'separators':
        throw new InputError(
          `The ${field} ${JSON.stringify(input)} has thousands separators; write it as ${reading.plain}.`,
          field,
        );
      case 'too-large':
        throw new InputError(
          `The ${field} ${JSON.stringify(input)} is too large: at most ${MAX_WHOLE_DIGITS} digits before the dot.`,
          field,
        );
      case 'zero':
        throw new InputError(`The ${field} is zero; enter an amount greater than 0.`, field);
      default:
        throw new InputError(
          `The ${field} ${JSON.stringify(input)} is not an amount; write it with digits${exponent > 0 ? ` and a dot, ${decimalsWords(exponent)}` : ' only'}, for example ${example}.`,
          field,
        );
    }
  }
  return { text, minor: reading.minor };
}

/** Formats integer minor units as major-unit text: 1050n -> "10.50" (EUR), 5000n -> "5000" (JPY). */
export function formatMinor(minor: bigint, currency?: string | null): string {
  return minorToText(minor, currencyExponent(currency));
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
