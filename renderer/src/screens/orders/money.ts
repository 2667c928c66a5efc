// Amounts stay decimal text from the gateway to the screen. The screen never does money
// arithmetic; it only checks a typed amount's shape for the order's currency (JPY has no
// decimals, KWD three: common/money.ts) and whether it is at most what is left, which needs
// an exact comparison: integer minor units from the text's digits, never a float.

import {
  currencyExponent,
  decimalsWords,
  exampleAmount,
  groupThousands,
  MAX_WHOLE_DIGITS,
  minorToText,
  readMoney,
} from '../../../../common/money';

/** Integer minor units of a decimal text in `currency`, or undefined when it is not an amount. */
export function minorOf(text: string, currency: string): bigint | undefined {
  const reading = readMoney(text, currencyExponent(currency));
  return reading.ok ? reading.minor : undefined;
}

/** The amount as it will be sent and confirmed: " 12 " -> "12.00" (EUR), "5000" (JPY). */
export function normalisedAmount(text: string, currency: string): string | undefined {
  const reading = readMoney(text, currencyExponent(currency));
  return reading.ok ? reading.text : undefined;
}

/** A figure for the eye: thousands separators, the currency's decimals kept as sent. */
export function showMoney(text: string | null | undefined): string {
  return text === null || text === undefined ? '' : groupThousands(text);
}

/**
 * A figure the gateway knows better than the journal (captures or refunds made elsewhere) is at
 * least what the journal saw; "at least 0.00" says nothing, so it is shown as unknown.
 */
export function lowerBoundUnknown(text: string, atLeast: boolean): boolean {
  return atLeast && /^0+(\.0+)?$/.test(text.trim());
}

/** The words for a lower bound of zero: only the gateway knows the figure. */
export const GATEWAY_KNOWS = 'Unknown: the gateway knows';

/**
 * Why `text` cannot be sent as an amount of at most `max`, or undefined when it can. Without
 * `max` only the gateway knows what is left (changes made outside Paydesk).
 */
export function amountProblem(
  text: string,
  max: string | undefined,
  currency: string,
): string | undefined {
  const exponent = currencyExponent(currency);
  const unit = currency ? ` ${currency}` : '';
  const most = max !== undefined ? `${showMoney(max)}${unit}` : undefined;
  const example = max ?? exampleAmount(exponent);
  const reading = readMoney(text, exponent);
  if (!reading.ok) {
    switch (reading.problem) {
      case 'empty':
        return most ? `Enter an amount, at most ${most}.` : 'Enter an amount.';
      case 'comma':
        return exponent === 0
          ? `Write the amount without decimals: ${currency} has none, for example ${example}.`
          : `Write the amount with a dot, for example ${example}.`;
      case 'decimals':
        return exponent === 0
          ? `${currency} has no decimals: write whole units, for example ${example}.`
          : `Use ${decimalsWords(exponent)}${exponent === 2 ? ' (cents)' : ''}, for example ${example}.`;
      case 'too-large':
        return `That amount is too large: at most ${MAX_WHOLE_DIGITS} digits before the dot${most ? `, and at most ${most} is left` : ''}.`;
      case 'zero':
        return `The amount must be more than ${minorToText(0n, exponent)}.`;
      default:
        return exponent === 0
          ? `Write the amount with digits only, for example ${example}.`
          : `Write the amount with digits and a dot, ${decimalsWords(exponent)}, for example ${example}.`;
    }
  }
  const limit = max === undefined ? undefined : minorOf(max, currency);
  if (limit !== undefined && reading.minor > limit)
    return `That is more than what is left: at most ${most}.`;
  return undefined;
}
