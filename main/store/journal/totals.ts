// Totals of whatever a journal filter shows, said once for both stores: sums of minor units per
// currency (bigint, never two currencies added together), and per action within a currency.
// Each entry counts in one of three columns, by what the gateway has said of it:
// - approved: its final status is approved (by the gateway, or a person settling it by hand):
//   this money moved;
// - open: its final answer is still owed (sending, acknowledged, unknown): it may have moved or
//   not, so what moved is at least `approved` and at most `approved + open`. A payment link
//   waiting for its customer is open too: the customer may have paid at the gateway before the
//   journal heard of it, so only the gateway could say it moved nothing (the daily close counts
//   it as waiting for the same reason);
// - not moved: declined, filtered, error, refused. Counted, not summed.
// Entries without an amount (a saved card) count under the currency null.
// The stores group by these columns in SQL (TOTALS_GROUPS) and fold the groups here; an export
// tallies the entries it writes the same way (TotalsTally.addEntry), so a file's totals are
// those of its own lines.

import { IN_FLIGHT, type JournalEntry, type JournalState } from './types';

export interface Sum {
  count: number;
  minor: bigint;
}

export interface ActionTotals {
  /** The entry's action (JOURNAL_ACTIONS), or its gateway operation where it has none. */
  action: string;
  approved: Sum;
  open: Sum;
  notMoved: number;
}

export interface CurrencyTotals extends Omit<ActionTotals, 'action'> {
  /** Null: entries without an amount. */
  currency: string | null;
  /** Its actions, by action. */
  byAction: ActionTotals[];
}

export interface JournalTotals {
  /** By currency code, entries without an amount last. */
  currencies: CurrencyTotals[];
}

export type Bucket = 'approved' | 'open' | 'notMoved';

/** Which column an entry counts in (see the top of this file). */
export function bucketOf(state: string, status: string | null): Bucket {
  if (state === 'final') return status === 'approved' ? 'approved' : 'notMoved';
  return IN_FLIGHT.includes(state as JournalState) ? 'open' : 'notMoved';
}

/**
 * The groups a store reads: `table` filtered by `where`, one row per currency, action,
 * operation, state and status, with its count (n) and its sum of amount_minor (minor).
 * `byIndex` false writes the grouping so that no index's order can serve it (SQLite: `+`), for
 * a filter on columns an index holding these ones lacks: walking that index for its order
 * would read every row at random instead of scanning once.
 */
export const totalsGroupsSql = (table: string, where: string, byIndex = true): string => {
  const plus = byIndex ? '' : '+';
  return `SELECT currency, action, operation, state, status, COUNT(*) AS n, SUM(amount_minor) AS minor
     FROM ${table} ${where}
     GROUP BY ${plus}currency, ${plus}action, ${plus}operation, ${plus}state, ${plus}status`;
};

/** A row of totalsGroupsSql as a driver reads it (counts and sums as bigint, number or text). */
export interface TotalsGroup {
  currency: string | null;
  action: string | null;
  operation: string;
  state: string;
  status: string | null;
  n: number | bigint | string;
  minor: number | bigint | string | null;
}

const zero = (): Sum => ({ count: 0, minor: 0n });
const emptyLine = (): Omit<ActionTotals, 'action'> => ({
  approved: zero(),
  open: zero(),
  notMoved: 0,
});

/** Adds groups or entries up; `totals()` gives them in a stable order. */
export class TotalsTally {
  private readonly lines = new Map<string | null, Map<string, Omit<ActionTotals, 'action'>>>();

  add(group: TotalsGroup): void {
    const count = Number(group.n);
    const minor = group.minor === null ? 0n : BigInt(group.minor);
    const action = group.action ?? group.operation;
    let byAction = this.lines.get(group.currency);
    if (!byAction)
      this.lines.set(group.currency, (byAction = new Map<string, Omit<ActionTotals, 'action'>>()));
    let line = byAction.get(action);
    if (!line) byAction.set(action, (line = emptyLine()));
    const bucket = bucketOf(group.state, group.status);
    if (bucket === 'notMoved') {
      line.notMoved += count;
    } else {
      line[bucket].count += count;
      line[bucket].minor += minor;
    }
  }

  addEntry(e: JournalEntry): void {
    this.add({
      currency: e.currency,
      action: e.action,
      operation: e.operation,
      state: e.state,
      status: e.status,
      n: 1,
      minor: e.amountMinor,
    });
  }

  totals(): JournalTotals {
    const currencies: CurrencyTotals[] = [];
    for (const [currency, byAction] of this.lines) {
      const all = { currency, ...emptyLine(), byAction: [] as ActionTotals[] };
      for (const [action, line] of byAction) {
        all.byAction.push({ action, ...line });
        all.approved = plus(all.approved, line.approved);
        all.open = plus(all.open, line.open);
        all.notMoved += line.notMoved;
      }
      all.byAction.sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
      currencies.push(all);
    }
    currencies.sort((a, b) =>
      a.currency === b.currency
        ? 0
        : a.currency === null
          ? 1
          : b.currency === null
            ? -1
            : a.currency < b.currency
              ? -1
              : 1,
    );
    return { currencies };
  }
}

const plus = (a: Sum, b: Sum): Sum => ({ count: a.count + b.count, minor: a.minor + b.minor });

/** The totals of a store's groups. */
export function totalsOfGroups(groups: Iterable<TotalsGroup>): JournalTotals {
  const tally = new TotalsTally();
  for (const group of groups) tally.add(group);
  return tally.totals();
}
