// The daily close's words and sums, shared by main (the CSV export) and the renderer (the
// Reports screen): what each kind of money movement is called, and the roll-ups of the rows
// each store's SQL grouped (store/journal/summary.ts). Sums are bigint minor units, one currency
// at a time: nothing here ever adds two currencies together or goes through a float.

/** The money movements the report counts, in the order the screen lists them. */
export const REPORT_KINDS = [
  'capture',
  'refund',
  'void',
  'cancel-hold',
  'payout',
  'rebill',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  capture: 'Captured',
  refund: 'Refunded',
  void: 'Voided',
  'cancel-hold': 'Holds cancelled',
  payout: 'Paid out',
  rebill: 'Rebilled',
};

/**
 * Which journal actions (common/journal-actions.ts) each kind gathers. A payout check only
 * registers a payout (its pay moves the money), so it is not counted.
 */
export const REPORT_ACTIONS: Record<ReportKind, readonly string[]> = {
  capture: ['capture', 'partial-capture'],
  refund: ['refund', 'partial-refund'],
  void: ['void'],
  'cancel-hold': ['cancel-hold'],
  payout: ['payout', 'payout-pay'],
  rebill: ['rebill'],
};

/**
 * approved: the gateway's final word was approved (or a person settled it so); failed: the
 * gateway declined, filtered or refused it, or it provably never left; pending: its final word
 * is still owed (sending, acknowledged, unknown), so the approved figures are "at least".
 */
export const REPORT_OUTCOMES = ['approved', 'failed', 'pending'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** One group of the summary: a day, a currency, a kind, an operator, an outcome. */
export interface ReportLine {
  /** The desk's calendar day, YYYY-MM-DD. */
  day: string;
  /** null for entries that carry no amount (a full void): counted, never summed. */
  currency: string | null;
  kind: ReportKind;
  operator: string;
  outcome: ReportOutcome;
  count: number;
  /** The sum of the amounts the entries carry, in the currency's minor units. */
  amountMinor: bigint;
  /** Entries of the group that carry no amount: their money is not in amountMinor. */
  withoutAmount: number;
}

/** Counts and sums of one kind in one currency (approved, failed, pending apart). */
export interface Tally {
  count: number;
  amountMinor: bigint;
  withoutAmount: number;
}

export const emptyTally = (): Tally => ({ count: 0, amountMinor: 0n, withoutAmount: 0 });

function add(into: Tally, line: Pick<ReportLine, 'count' | 'amountMinor' | 'withoutAmount'>) {
  into.count += line.count;
  into.amountMinor += line.amountMinor;
  into.withoutAmount += line.withoutAmount;
}

/** A currency's key in the roll-ups: entries without an amount have no currency. */
export const NO_CURRENCY = '';

export type OutcomeTallies = Record<ReportOutcome, Tally>;
const emptyOutcomes = (): OutcomeTallies => ({
  approved: emptyTally(),
  failed: emptyTally(),
  pending: emptyTally(),
});

/**
 * The lines rolled up by a key of the caller's choosing, and within it by outcome. The key
 * always holds the currency (keyOf's job), so no tally mixes two currencies.
 */
export function rollUp(
  lines: readonly ReportLine[],
  keyOf: (line: ReportLine) => string,
): Map<string, OutcomeTallies> {
  const out = new Map<string, OutcomeTallies>();
  for (const line of lines) {
    const key = keyOf(line);
    let tallies = out.get(key);
    if (!tallies) out.set(key, (tallies = emptyOutcomes()));
    add(tallies[line.outcome], line);
  }
  return out;
}

/** Per currency and kind: `EUR|capture`. */
export const byCurrencyKind = (l: ReportLine) => `${l.currency ?? NO_CURRENCY}|${l.kind}`;
/** Per day, currency and kind: `2026-03-14|EUR|capture`. */
export const byDayCurrencyKind = (l: ReportLine) =>
  `${l.day}|${l.currency ?? NO_CURRENCY}|${l.kind}`;
/** Per operator, currency and kind: `ann|EUR|capture`. */
export const byOperatorCurrencyKind = (l: ReportLine) =>
  `${l.operator}|${l.currency ?? NO_CURRENCY}|${l.kind}`;

/** The currencies the lines name, sorted; entries without an amount last (as NO_CURRENCY). */
export function currenciesOf(lines: readonly ReportLine[]): string[] {
  const set = new Set(lines.map((l) => l.currency ?? NO_CURRENCY));
  return [...set].sort((a, b) => (a === NO_CURRENCY ? 1 : b === NO_CURRENCY ? -1 : a < b ? -1 : 1));
}

/** Every calendar day from `from` to `to` (YYYY-MM-DD, both included), in order. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00.000Z`);
  for (let t = Date.parse(`${from}T00:00:00.000Z`); t <= end; t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** The longest range one report covers: a year and a day (a leap year's close and its day after). */
export const MAX_REPORT_DAYS = 367;
