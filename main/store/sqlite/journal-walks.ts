// Which index a journal filter's count and totals walk. SQLite chooses an index by the kind of
// condition, not by how many entries it holds: it prefers an equality to a range, so
// "approved, last 30 days" walks every approved entry of the journal (most of it) to count a
// month's, reading each one's row for the totals. Here the walks are estimated first:
// - a filter with dates and a field with an index of its own (a status, state, operation,
//   action, profile, pending, amount, card or id): the dates' share of the journal is
//   estimated from the ids at their ends (two seeks), then each field's is counted up to that
//   estimate and no further. When the dates are the narrower, the count and the totals walk
//   journal_report (created_at first; it holds the columns most filters test) by INDEXED BY.
// - a filter on journal_totals' columns alone (a status, state, pending, operation, action,
//   currency, amount) whose every indexed field holds a tenth of the journal or more: its
//   totals walk all of journal_totals (in the groups' order, no row read, nothing sorted)
//   instead of the field's index (each row read, the groups sorted), and so does its count
//   when it has an amount (the amount's index lacks the currency its condition tests).
// - anything else is the query SQLite plans itself.
// An estimate reads no row (an id's start aside: it tests four columns) and costs no more than
// the narrower walk, where the wider one can be a whole journal. The results are the same
// either way; only the walk differs. No index is added for this: every index is written by
// every refund.

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

/**
 * Fields on columns journal_totals holds (currency, action, operation, state, status and the
 * amount), so that it serves a filter on them alone without reading a row.
 */
const TOTALS_INDEX_FIELDS = new Set<keyof JournalFilter>([
  'status',
  'state',
  'pending',
  'operation',
  'action',
  'currency',
  'amount',
  'amountMin',
  'amountMax',
]);

/**
 * A field that matches one entry in this many is wide: a walk of all of journal_totals (no row
 * read) costs less than its own index's walk when that reads each row.
 */
const WIDE_SHARE = 10;

/**
 * Reading an entry's row costs about as much as walking this many entries of an index, and the
 * dates' walk must be this much shorter than a field's to be taken (see datesNarrower).
 */
const ROW_READ = 4;
const MARGIN = 2;

const BY_DATES = 'INDEXED BY journal_report';
const BY_TOTALS = 'INDEXED BY journal_totals';

/** A query and its values. */
export interface Query {
  sql: string;
  params: Record<string, string>;
}

/**
 * The COUNT of a filter, written to walk the narrower index (see the top of this file); `what`
 * the aggregates read on that walk (the count alone, or with the ids at its ends).
 */
export function countQuery(
  statements: Statements,
  filter: JournalFilter,
  what = 'COUNT(*)',
): Query {
  const w = whereClause(filter);
  return {
    sql: `SELECT ${what} FROM journal ${countWalk(statements, filter)} ${w.where}`,
    params: w.params,
  };
}

/** How many entries match the filter. */
export function countOf(statements: Statements, filter: JournalFilter): number {
  const q = countQuery(statements, filter);
  return Number(statements.get(q.sql).pluck().get(q.params));
}

/** How many entries match the filter, and the newest and oldest of their ids (null: none). */
export interface Matches {
  total: number;
  newest: bigint | null;
  oldest: bigint | null;
}

/**
 * The count's walk, the matches' ids at its ends added up beside it: every index holds the id,
 * so they cost the count nothing more.
 */
export function matchesOf(statements: Statements, filter: JournalFilter): Matches {
  const q = countQuery(statements, filter, 'COUNT(*), MAX(id), MIN(id)');
  const [total, newest, oldest] = statements
    .get(q.sql)
    .raw(true)
    .safeIntegers(true)
    .get(q.params) as [bigint, bigint | null, bigint | null];
  return { total: Number(total), newest, oldest };
}

/**
 * The count's INDEXED BY, or '' for SQLite's own choice. An amount's index holds no currency,
 * which an amount's condition tests, so a wide amount reads a row per entry: journal_totals
 * holds both. The other fields' own indexes serve their counts without reading a row.
 */
function countWalk(statements: Statements, filter: JournalFilter): string {
  if (datesNarrower(statements, filter)) return BY_DATES;
  const amount = given(filter.amount) || given(filter.amountMin) || given(filter.amountMax);
  if (amount && onTotals(filter) && fieldsWide(statements, filter)) return BY_TOTALS;
  return '';
}

/**
 * What the totals' FROM walks, and whether the grouping may follow its order (totalsGroupsSql's
 * byIndex): the dates' index when they are the narrower; all of journal_totals, in the groups'
 * order, for a filter on its columns that holds a good share of the journal (its own index
 * would read every row and sort the groups); or SQLite's own choice, the groups sorted after
 * unless journal_totals serves the filter.
 */
export function totalsWalk(
  statements: Statements,
  filter: JournalFilter,
): { from: string; byIndex: boolean } {
  if (datesNarrower(statements, filter)) return { from: `journal ${BY_DATES}`, byIndex: false };
  if (!onTotals(filter)) return { from: 'journal', byIndex: false };
  if (fieldsWide(statements, filter)) return { from: `journal ${BY_TOTALS}`, byIndex: true };
  return { from: 'journal', byIndex: true };
}

/** Whether the filter is on journal_totals' columns alone. */
const onTotals = (filter: JournalFilter): boolean =>
  Object.entries(filter).every(
    ([field, value]) => !given(value) || TOTALS_INDEX_FIELDS.has(field as keyof JournalFilter),
  );

/**
 * Whether every indexed field of the filter matches at least one entry in WIDE_SHARE of the
 * journal (false when it has none): counted up to that many and no further. The newest id says
 * about how many entries the journal holds: they are never deleted.
 */
function fieldsWide(statements: Statements, filter: JournalFilter): boolean {
  const fields = indexedFields(filter);
  if (fields.length === 0) return false;
  const cap = Math.ceil(newestId(statements) / WIDE_SHARE);
  return fields.every(({ walk }) => upTo(statements, walk, cap) >= cap);
}

/** The newest id: about how many entries the journal holds (they are never deleted). */
function newestId(statements: Statements): number {
  return Number(
    statements.get('SELECT MAX(id) FROM journal').pluck().safeIntegers(true).get() ?? 0,
  );
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
 * Each indexed field of the filter alone, as a walk of its index that reads no row. Pending is
 * read as in flight, which its index holds whole: the open links it leaves out are few, and
 * telling them apart reads each entry's row. An amount (exact, or a range with both bounds) is
 * read in the currencies with two decimals, most of any journal: the condition on the others
 * would read each entry's currency from its row.
 */
function indexedFields(filter: JournalFilter): Field[] {
  const alone: Field[] = [];
  for (const field of INDEXED_FIELDS) {
    const value = filter[field];
    if (!given(value)) continue;
    // journal_status_id holds created_at: a status and dates are counted without a row read.
    const readsRows = field !== 'status';
    if (field === 'pending')
      alone.push({ walk: { where: `WHERE ${IN_FLIGHT_SQL}`, params: {} }, readsRows });
    else if (field === 'amount' || field === 'amountMin' || field === 'amountMax') {
      if (field === 'amount' || !alone.some((f) => f.walk.where.includes(BY_AMOUNT)))
        alone.push({ walk: amountInCents(filter, field === 'amount'), readsRows });
    } else alone.push({ walk: whereClause({ [field]: value }), readsRows });
  }
  return alone;
}

/** A field's walk of its own index, and whether the count reads each entry's row there. */
interface Field {
  walk: Where;
  readsRows: boolean;
}

const BY_AMOUNT = 'INDEXED BY journal_amount';

/** The filter's amount (exact) or range, in minor units of a currency with two decimals. */
function amountInCents(filter: JournalFilter, exact: boolean): Where {
  const { params } = whereClause(
    exact
      ? { amount: filter.amount }
      : { amountMin: filter.amountMin, amountMax: filter.amountMax },
  );
  const bounds: string[] = [];
  const used: Record<string, string> = {};
  for (const [name, compare] of exact
    ? ([['amount2', '=']] as const)
    : ([
        ['amountMin2', '>='],
        ['amountMax2', '<='],
      ] as const)) {
    const value = params[name];
    if (value === undefined) continue;
    bounds.push(`amount_minor ${compare} CAST(@${name} AS INTEGER)`);
    used[name] = value;
  }
  // An exact amount with more decimals than two is no amount in cents.
  if (bounds.length === 0) bounds.push('0');
  return { where: `${BY_AMOUNT} WHERE ${bounds.join(' AND ')}`, params: used };
}

/**
 * Whether the filter has dates and walking them costs less than walking each of its indexed
 * fields (false without dates or without such a field). The dates' share is estimated from the
 * ids at their two ends (two seeks in journal_report): ids are given in the order entries are
 * written, with the time they were written, and never deleted, so the ids between the dates'
 * first and last entry are about the entries between them. A field's walk costs its entries,
 * or ROW_READ times as many where it reads each one's row for the dates; the dates win by
 * MARGIN at least (the two walks cost about the same per entry). Each field's share is counted
 * only as far as decides it: not at all when even the whole journal could not (a status and
 * the dates of most of the journal: SQLite's own walk, as cheap as the estimate would be).
 */
function datesNarrower(statements: Statements, filter: JournalFilter): boolean {
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
  const entries = newestId(statements);
  return fields.every(({ walk, readsRows }) => {
    // The field wins unless it has more entries than this.
    const enough = Math.ceil((MARGIN * span) / (readsRows ? ROW_READ : 1));
    return enough < entries && upTo(statements, walk, enough + 1) > enough;
  });
}
