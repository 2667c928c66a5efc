// What the gateway has said is left of an order, and when. The status answer carries no running
// totals (docs/protocol.md, "Order figures"), but a capture or return refused for being too much
// names what is left ("above what is left to return, 30.00 EUR"), and one refused because
// nothing is left says so. That refusal is in the journal (the entry, its message, its time), so
// the figure is read back from there: never guessed, and always with the time it was said.
// Captures and refunds made elsewhere after that time are not in it: the figure is the most
// that can be left, which is why it may cap what a clerk sends but never raise it.

import { parseAmount } from '../../gateway/amount';
import type { JournalEntry } from '../../store/journal/types';

export type LeftOf = 'capture' | 'refund';

export interface GatewaySaidLeft {
  of: LeftOf;
  leftMinor: bigint;
  /** When the gateway said it: the refusal's time. */
  at: string;
  /** The entry the gateway refused while saying it. */
  clientOrderId: string;
}

/** The gateway's words, as its refusals put them; the figure and its currency follow. */
const FIGURE_WORDS: readonly { of: LeftOf; words: RegExp }[] = [
  { of: 'refund', words: /what is left to return,\s+([0-9]+(?:\.[0-9]+)?)\s+([A-Z]{3})\b/i },
  { of: 'capture', words: /what is left of the hold,\s+([0-9]+(?:\.[0-9]+)?)\s+([A-Z]{3})\b/i },
  // A return on a preauth cancels the whole hold it names: that is what is left to capture.
  { of: 'capture', words: /cancels the whole hold,\s+([0-9]+(?:\.[0-9]+)?)\s+([A-Z]{3})\b/i },
];

/** Refusals that say nothing at all is left. */
const NOTHING_LEFT: readonly { of: LeftOf; words: RegExp }[] = [
  { of: 'refund', words: /\bis already fully returned\b/i },
  { of: 'capture', words: /\bis already fully captured\b/i },
];

/**
 * What the gateway said is left when it refused this entry; undefined when it said nothing of
 * it (an entry not refused by the gateway, or refused for another reason, or another currency).
 */
export function saidLeft(
  entry: JournalEntry,
  currency: string | undefined,
): GatewaySaidLeft | undefined {
  if (entry.state !== 'refused' || !entry.errorMessage) return undefined;
  const at = entry.finalAt ?? entry.updatedAt;
  const said = (of: LeftOf, leftMinor: bigint): GatewaySaidLeft => ({
    of,
    leftMinor,
    at,
    clientOrderId: entry.clientOrderId,
  });
  for (const { of, words } of FIGURE_WORDS) {
    const match = words.exec(entry.errorMessage);
    if (!match) continue;
    const [, amount = '', named = ''] = match;
    if (currency && named.toUpperCase() !== currency.toUpperCase()) return undefined;
    try {
      return said(of, parseAmount(amount, 'amount', currency).minor);
    } catch {
      return undefined;
    }
  }
  for (const { of, words } of NOTHING_LEFT) if (words.test(entry.errorMessage)) return said(of, 0n);
  return undefined;
}

/** The latest thing the gateway said is left of `of` among the order's entries (oldest first). */
export function latestSaid(
  entries: readonly JournalEntry[],
  of: LeftOf,
  currency: string | undefined,
): { said: GatewaySaidLeft; after: JournalEntry[] } | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const said = saidLeft(entries[index]!, currency);
    if (said?.of === of) return { said, after: entries.slice(index + 1) };
  }
  return undefined;
}
