// Which index a journal filter's count and totals walk. SQLite chooses an index by the kind of
// condition, not by how many entries it holds: it prefers an equality to a range, so
// "approved, last 30 days" walks every approved entry of the journal (most of it) to count a
// month's, reading each one's row for the totals. Here the walks are estimated first:
// - a filter with dates and a field with an index of its own (a status, state, operation,
//   action, profile, pending, amount, card or id): the dates' share of the journal is
//   estimated from the ids at their ends (two seeks), then each field's is counted up to that
//   estimate and no further. When the dates are the narrower, the count and the totals walk
//   journal_report (created_at first; it holds the columns most filters test) by INDEXED BY;
//   otherwise they are the queries SQLite plans itself.
// - totals of a filter on journal_totals' columns alone (a status, state, pending, operation,
//   action, currency): when every such field holds a good share of the journal, one walk of
//   journal_totals (in the groups' order, no row read, nothing sorted) instead of the field's
//   index, each row read and the groups sorted.
// An estimate costs no more than the narrower walk, where the wider one can be a whole journal.
// The results are the same either way; only the walk differs. No index is added for this:
// every index is written by every refund.

import { whereClause, type Where } from './journal-where';
import type { Statements } from './statements';
import { IN_FLIGHT_SQL, type JournalFilter } from '../journal/filter';

/**
 * Fields with an index that serves them alone: what SQLite walks for a filter with one of them
 * and dates. An e-mail (no index) and a currency (compared ignoring case, which the index on it
 * does not serve) are only tested on what is walked.
 */
const INDEXED_FIELDS = [
  'status',
  'state',
  'pending',
  'operation',
  'action',
  'profileId',
  'cardLastFour',
  'orderRef',
  'amount',
  'amountMin',
  'amountMax',
] as const satisfies readonly (keyof JournalFilter)[];

/** A query and its values. */
export interface Query {
  sql: string;
  params: Record<string, string>;
}

/** The COUNT of a filter, written to walk the narrower index (see the top of this file). */
export function countQuery(statements: Statements, filter: JournalFilter): Query {
  const w = whereClause(filter);
  return {
    sql: `SELECT COUNT(*) FROM journal ${datesNarrower(statements, filter) ? BY_DATES : ''} ${w.where}`,
    params: w.params,
  };
}

/** How many entries match the filter. */
export function countOf(statements: Statements, filter: JournalFilter): number {
  const q = countQuery(statements, filter);
  return Number(statements.get(q.sql).pluck().get(q.params));
}

/** What a query's FROM names after `journal` to walk the dates' index. */
export const BY_DATES = 'INDEXED BY journal_report';

/**
 * Whether every indexed field of the filter matches at least one entry in `share` of the
 * journal (false when it has none): counted up to that many and no further. The ids say how
 * many entries the journal holds: they are never deleted.
 */
export function fieldsWide(statements: Statements, filter: JournalFilter, share: number): boolean {
  const fields = indexedFields(filter);
  if (fields.length === 0) return false;
  const newest = statements.get('SELECT MAX(id) FROM journal').pluck().safeIntegers(true).get();
  const cap = Math.ceil(Number(newest ?? 0) / share);
  return fields.every((w) => upTo(statements, w, cap) >= cap);
}

/** How many entries `w` matches, counted up to `cap` and no further. */
function upTo(statements: Statements, w: Where, cap: number): number {
  const sql = `SELECT COUNT(*) FROM (SELECT 1 FROM journal ${w.where} LIMIT @cap)`;
  return Number(
    statements
      .get(sql)
      .pluck()
      .get({ ...w.params, cap }),
  );
}

/** A field the filter's WHERE reads (blank is none, as in journal/filter.ts). */
const given = (value: unknown): boolean =>
  Boolean(value) && !(typeof value === 'string' && value.trim() === '');

/**
 * Each indexed field of the filter alone, as SQLite reads it (an amount's range keeps both
 * bounds). Pending is read as in flight, which its index holds whole: the open links it leaves
 * out are few, and telling them apart reads each entry's row.
 */
function indexedFields(filter: JournalFilter): Where[] {
  const alone: Where[] = [];
  for (const field of INDEXED_FIELDS) {
    const value = filter[field];
    if (!given(value)) continue;
    if (field === 'pending') alone.push({ where: `WHERE ${IN_FLIGHT_SQL}`, params: {} });
    else if (field === 'amountMax' && filter.amountMin) continue;
    else if (field === 'amountMin')
      alone.push(whereClause({ amountMin: filter.amountMin, amountMax: filter.amountMax }));
    else alone.push(whereClause({ [field]: value }));
  }
  return alone;
}

/**
 * Whether the filter has dates and they hold fewer entries than each of its indexed fields
 * alone (false without dates or without such a field). The dates' share is estimated from the
 * ids at their two ends (two seeks in journal_report): ids are given in the order entries are
 * written, with the time they were written, and never deleted, so the ids between the dates'
 * first and last entry are about the entries between them. Each field's share is then counted,
 * but never beyond that estimate, so this costs no more than the narrower walk.
 */
export function datesNarrower(statements: Statements, filter: JournalFilter): boolean {
  if (!given(filter.from) && !given(filter.to)) return false;
  const fields = indexedFields(filter);
  if (fields.length === 0) return false;
  const dates = whereClause({ from: filter.from, to: filter.to });
  const end = (order: 'ASC' | 'DESC') =>
    statements
      .get(`SELECT id FROM journal ${BY_DATES} ${dates.where} ORDER BY created_at ${order} LIMIT 1`)
      .pluck()
      .safeIntegers(true)
      .get(dates.params) as bigint | undefined;
  const first = end('ASC');
  const last = end('DESC');
  if (first === undefined || last === undefined) return true;
  const span = Number(last > first ? last - first : first - last) + 1;
  return fields.every((w) => upTo(statements, w, span + 1) > span);
}
