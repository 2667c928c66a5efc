// A typed amount, read for every money screen the one way: with its currency's exponent
// (common/money.ts: JPY has no decimals, KWD three), never as a float. The confirmation shows
// and main receives the normalised text ("12" -> "12.00" EUR, "5000" JPY, "12.345" KWD); what
// cannot be read ("1e3", "10,00", "-1", "0.001" EUR, nothing) gets a sentence saying what to
// write instead, and never reaches a confirmation.

import {
  currencyExponent,
  decimalsWords,
  exampleAmount,
  groupThousands,
  MAX_WHOLE_DIGITS,
  minorToText,
  readMoney,
} from '../../../common/money';

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
 * Why `text` cannot be sent as an amount of `currency` of at most `max`, or undefined when it
 * can. Without `max` there is no upper bound this screen knows.
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
      case 'separators':
        return `Write the amount without thousands separators: ${reading.plain}.`;
      case 'comma':
        if (exponent === 0)
          return `Write the amount without decimals: ${currency} has none, for example ${example}.`;
        return reading.dotted
          ? `Write the amount with a dot: ${reading.dotted}.`
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
