// Amounts stay decimal text from the gateway to the screen, shown as the gateway gave them. A
// typed amount is checked by the money screens' shared checks (money/checks.ts).

export { showMoney } from '../../money/amount';

/**
 * A figure the gateway knows better than the journal (captures or refunds made elsewhere) is at
 * least what the journal saw; "at least 0.00" says nothing, so it is shown as unknown.
 */
export function lowerBoundUnknown(text: string, atLeast: boolean): boolean {
  return atLeast && /^0+(\.0+)?$/.test(text.trim());
}

/** The words for a lower bound of zero: only the gateway knows the figure. */
export const GATEWAY_KNOWS = 'Unknown: the gateway knows';
