// The team journal's queries by a filter (../journal/filter.ts says what each field means): one
// page of a search, every match a page at a time (for export), and the totals per currency and
// action. The filter becomes PostgreSQL's WHERE here, once for all three. Reads of one entry or
// order are journal-reads.ts.

import type { JournalEntry, Page } from '../journal/types';
import type { JournalFilter } from '../journal/filter';
import { escapeLike, filterConditions, whereOf } from '../journal/filter';
import { entryOfRow, type JournalRow } from '../journal/row';
import {
  totalsGroupsSql,
  totalsOfGroups,
  type JournalTotals,
  type TotalsGroup,
} from '../journal/totals';
import type { JournalQuery } from './journal-reads';

/** Rows read at a time by iterateEntries. */
const PAGE = 500;

/**
 * One page, newest first. A page in the older half is counted from the oldest entry (and put
 * newest first): OFFSET steps over every row before the page, so the last page of a million
 * entries steps over none, not a million, and no page steps over more than half the matches.
 */
export async function searchPage(
  query: JournalQuery,
  filter: JournalFilter,
  offset: number,
  limit: number,
): Promise<Page<JournalEntry>> {
  const { where, values } = whereClause(filter);
  const counted = await query<{ n: string }>(
    `SELECT COUNT(*) AS n FROM paydesk.journal ${where}`,
    values,
  );
  const total = Number(counted.rows[0]?.n ?? 0);
  const skip = Math.max(0, offset);
  const take = Math.min(Math.max(1, Math.min(limit, 1000)), total - skip);
  if (take <= 0) return { rows: [], total, offset, limit };
  const older = total - skip - take; // matches older than the page
  const fromOldest = older < skip;
  const { rows } = await query<JournalRow>(
    `SELECT * FROM paydesk.journal ${where} ORDER BY id ${fromOldest ? 'ASC' : 'DESC'}
     LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, take, fromOldest ? older : skip],
  );
  if (fromOldest) rows.reverse();
  return { rows: rows.map(entryOfRow), total, offset, limit };
}

/** Newest first, a page at a time by id, so entries written meanwhile neither repeat nor hide others. */
export async function* iterateEntries(
  query: JournalQuery,
  filter: JournalFilter,
): AsyncGenerator<JournalEntry> {
  const { where, values } = whereClause(filter);
  let before: JournalRow['id'] | undefined;
  for (;;) {
    const bound =
      before === undefined ? '' : `${where ? 'AND' : 'WHERE'} id < $${values.length + 1}`;
    const { rows } = await query<JournalRow>(
      `SELECT * FROM paydesk.journal ${where} ${bound} ORDER BY id DESC LIMIT ${PAGE}`,
      before === undefined ? values : [...values, before],
    );
    for (const row of rows) yield entryOfRow(row);
    if (rows.length < PAGE) return;
    before = rows[rows.length - 1]?.id;
  }
}

/** The filter's totals per currency and action (journal/totals.ts), from PostgreSQL's groups. */
export async function totalsOf(query: JournalQuery, filter: JournalFilter): Promise<JournalTotals> {
  const { where, values } = whereClause(filter);
  const { rows } = await query<TotalsGroup>(totalsGroupsSql('paydesk.journal', where), values);
  return totalsOfGroups(rows);
}

/** The filter's WHERE in PostgreSQL's words (journal/filter.ts says what each field means). */
function whereClause(filter: JournalFilter): { where: string; values: string[] } {
  const values: string[] = [];
  const where = whereOf(
    filterConditions(filter, {
      bind(_field, value) {
        values.push(value);
        return `$${values.length}`;
      },
      // SQLite's NOCASE folds ASCII letters only; lower() on ASCII e-mail addresses does the same.
      equalsIgnoringCase: (column, p) => `lower(${column}) = lower(${p})`,
      time: (p) => `${p}::timestamptz`,
      integer: (p) => `${p}::bigint`,
      // LIKE keeps letter case, as SQLite's GLOB does; a text_pattern_ops index serves it.
      startsWith(column, _name, value) {
        values.push(`${escapeLike(value)}%`);
        return `${column} LIKE $${values.length} ESCAPE '\\'`;
      },
      likeIgnoringCase: (column, p) => `lower(${column}) LIKE lower(${p}) ESCAPE '\\'`,
    }),
  );
  return { where, values };
}
