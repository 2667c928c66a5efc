// The daily close as each store computes it (store/sqlite/reports.ts, store/postgres/reports.ts):
// the journal's entries of a range of days grouped by day, currency, kind, operator and outcome,
// counted and summed in SQL. What a day is belongs to the desk (its time zone), not to either
// database: the service gives each day as the UTC instants it starts and ends, and both stores
// put an entry in the day whose [from, to) holds its created_at (when the clerk sent it). So a
// day across a summer-time change is 23 or 25 hours on both, and the two stores cannot disagree
// about which day an entry belongs to. The kind and outcome are decided by the same SQL text on
// both (plain CASE, valid in SQLite and PostgreSQL).

import {
  REPORT_ACTIONS,
  REPORT_KINDS,
  type ReportKind,
  type ReportLine,
  type ReportOutcome,
} from '../../../common/report';
import { IN_FLIGHT } from './types';

/** One day of the desk: its date, and the UTC instants (ISO, Z) it starts at and ends before. */
export interface ReportDay {
  day: string;
  from: string;
  to: string;
}

export interface SummaryQuery {
  /** Consecutive days, oldest first. */
  days: readonly ReportDay[];
  /** One profile's entries; absent: every profile's. */
  profileId?: string;
}

export type { ReportLine } from '../../../common/report';

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** Every journal action the report counts. */
export const SUMMARY_ACTIONS: readonly string[] = REPORT_KINDS.flatMap((k) => REPORT_ACTIONS[k]);

/** The entry's kind, from its action (the same text for SQLite and PostgreSQL). */
export const KIND_SQL = `CASE ${REPORT_KINDS.map(
  (kind) => `WHEN j.action IN (${quoted(REPORT_ACTIONS[kind])}) THEN '${kind}'`,
).join(' ')} END`;

/** The entry's outcome (common/report.ts says what each means). */
export const OUTCOME_SQL = `CASE WHEN j.state = 'final' AND j.status = 'approved' THEN 'approved'
  WHEN j.state IN (${quoted(IN_FLIGHT)}) THEN 'pending' ELSE 'failed' END`;

/** The days, checked: consecutive, each a [from, to) of UTC instants. A bug if not. */
export function checkDays(days: readonly ReportDay[]): void {
  if (days.length === 0) throw new Error('A summary needs at least one day.');
  for (const [i, d] of days.entries()) {
    if (!(Date.parse(d.from) < Date.parse(d.to)))
      throw new Error(`Day ${d.day} ends before it starts.`);
    const next = days[i + 1];
    if (next && next.from !== d.to) throw new Error(`Day ${next.day} does not follow ${d.day}.`);
  }
}

/** A row as either store returns it: the sums as text or bigint, counts as numbers. */
export interface SummaryRow {
  day: string;
  currency: string | null;
  kind: string;
  operator: string;
  outcome: string;
  count: number | bigint | string;
  amount: bigint | string | null;
  without_amount: number | bigint | string;
}

export function lineOfRow(row: SummaryRow): ReportLine {
  return {
    day: row.day,
    currency: row.currency,
    kind: row.kind as ReportKind,
    operator: row.operator,
    outcome: row.outcome as ReportOutcome,
    count: Number(row.count),
    amountMinor: row.amount === null ? 0n : BigInt(row.amount),
    withoutAmount: Number(row.without_amount),
  };
}

/** A stable order for the lines, whichever store made them. */
export function sortLines(lines: ReportLine[]): ReportLine[] {
  const key = (l: ReportLine) =>
    [l.day, l.currency ?? '', l.kind, l.operator, l.outcome].join('\u0000');
  return lines.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
