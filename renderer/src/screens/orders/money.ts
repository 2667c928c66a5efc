// Amounts stay decimal text from the gateway to the screen. The screen never does money
// arithmetic; it only checks a typed amount's shape and whether it is at most what is left,
// which needs an exact comparison: integer cents from the text's digits, never a float.

const MONEY = /^(0|[1-9]\d{0,12})(\.\d{1,2})?$/;

/** Integer cents of a decimal text such as "10.4", or undefined when it is not an amount. */
export function cents(text: string): bigint | undefined {
  const trimmed = text.trim();
  if (!MONEY.test(trimmed)) return undefined;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return BigInt(whole + fraction.padEnd(2, '0'));
}

/**
 * Why `text` cannot be sent as an amount of at most `max`, or undefined when it can. Without
 * `max` only the gateway knows what is left (changes made outside Paydesk).
 */
export function amountProblem(
  text: string,
  max: string | undefined,
  currency: string,
): string | undefined {
  const trimmed = text.trim();
  const unit = currency ? ` ${currency}` : '';
  if (trimmed === '')
    return max !== undefined ? `Enter an amount, at most ${max}${unit}.` : 'Enter an amount.';
  if (/^\d+,\d+$/.test(trimmed)) return `Write the amount with a dot, for example 10.42.`;
  if (/^\d+\.\d{3,}$/.test(trimmed))
    return `Use at most two decimals (cents), for example ${max ?? '10.42'}.`;
  const value = cents(trimmed);
  if (value === undefined)
    return 'Write the amount with digits and a dot, at most two decimals, for example 10.42.';
  if (value === 0n) return 'The amount must be more than 0.00.';
  const limit = max === undefined ? undefined : cents(max);
  if (limit !== undefined && value > limit)
    return `That is more than what is left: at most ${max}${unit}.`;
  return undefined;
}
