// Reading the journal by filter: pages by offset (the Journal screen's list is random access:
// dragging to the end asks for the last page, not the thousands before it) and batches for the
// export, in the same fraction of a millisecond at any depth of any size of journal.
//
// - Rows are read whole only for the page: positions are stepped over in an index (ids only).
//   A page within DIRECT_SKIP positions of either end is counted from that end (the last page
//   of an undated filter is the first one counted from the oldest). Any other page starts from
//   a keyset anchor (`id <= anchor`, or `>=` from the oldest end), one every ANCHOR_EVERY
//   positions, counted from the nearer end an index walks in id order (journal-anchors.ts):
//   so no page steps over more than about a page of ids, at any depth. An end the filter's
//   dates bound ("last 30 days": its oldest end) is never walked from: an index in id order
//   would step over every entry outside the dates first. The anchors are read as far as a page
//   asks, the first time it asks; a filter whose dates bound both ends reads them all at once,
//   sorted.
// - The total (COUNT) and the anchors are kept per filter until the journal changes, so paging
//   through a filter counts once, not once per page.
// - "The journal changed" is SQLite's own account: total_changes() counts every row written
//   through this connection, PRAGMA data_version moves when another connection (another
//   process on the same file) commits. A total or anchor is never used after any write.
// Every statement is prepared once, by its SQL text (built from the filter's shape, never from
// its values).

import type Database from 'better-sqlite3';

import type { Db } from './database';
import type { JournalFilter } from '../journal/filter';
import { EndAnchors } from './journal-anchors';
import { countOf, matchesOf, totalsWalk, type Matches } from './journal-walks';
import { whereClause, type Where } from './journal-where';
import { Statements } from './statements';
import { sortingInFiles } from './temp-store';
import {
  totalsGroupsSql,
  totalsOfGroups,
  type JournalTotals,
  type TotalsGroup,
} from '../journal/totals';

export { whereClause, type Where } from './journal-where';

/**
 * A page this close to an end an index walks in id order is counted from that end, without an
 * anchor: the first pages of any filter, the last pages of an undated one.
 */
const DIRECT_SKIP = 64;
/**
 * Positions between two anchors: a page found from an anchor steps over fewer ids than this
 * (a few microseconds, where the page's rows take a few hundred).
 */
const ANCHOR_EVERY = 64;
/** Filters whose total and anchors are kept (the screen shows one at a time). */
const FILTERS_KEPT = 8;

interface Known {
  version: string;
  total?: number;
  /** Anchors counted from the newest (DESC) and from the oldest (ASC). */
  anchors: { DESC?: EndAnchors; ASC?: EndAnchors };
}

/**
 * How a page's query orders by id. Walking an index in id order (journal_status_id, or the
 * table itself) meets the page's rows first and stops after them, unless the filter's dates
 * bound the end the walk starts from: newest first with a `to`, oldest first with a `from`.
 * Then the walk would step over every entry outside the dates before the first match (the
 * last page of "approved, last 30 days" would step over two years of approved entries), and
 * `+id` (the same order, but no index may provide it) leaves SQLite to the date range's index
 * and sorting what it finds.
 */
function byId(w: Where, order: 'ASC' | 'DESC'): string {
  const boundedStart = order === 'DESC' ? w.params.to !== undefined : w.params.from !== undefined;
  return boundedStart ? '+id' : 'id';
}

/** `where` with one more condition. */
function and(where: string, condition: string): string {
  return where ? `${where} AND ${condition}` : `WHERE ${condition}`;
}

export class JournalPages {
  private readonly statements: Statements;
  private readonly known = new Map<string, Known>();

  private readonly directSkip: number;
  private readonly anchorEvery: number;

  constructor(
    private readonly db: Db,
    /** Smaller steps let tests reach every path with a small journal. */
    steps: { directSkip?: number; anchorEvery?: number } = {},
  ) {
    this.statements = new Statements(db);
    this.directSkip = steps.directSkip ?? DIRECT_SKIP;
    this.anchorEvery = steps.anchorEvery ?? ANCHOR_EVERY;
  }

  private statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  /** Changes whenever any row of the file was written, by this connection or another. */
  private version(): string {
    const changes = this.statement('SELECT total_changes()').pluck().get() as number | bigint;
    const other = this.statement('PRAGMA data_version').pluck().get() as number | bigint;
    return `${changes}/${other}`;
  }

  /** What is known about this filter at this version of the journal (kept for a few filters). */
  private knownFor(w: Where): Known {
    const key = `${w.where}\u0000${JSON.stringify(w.params)}`;
    const version = this.version();
    let known = this.known.get(key);
    if (known?.version !== version) known = { version, anchors: {} };
    // Most recently used last; the first ones go.
    this.known.delete(key);
    this.known.set(key, known);
    for (const oldest of this.known.keys()) {
      if (this.known.size <= FILTERS_KEPT) break;
      this.known.delete(oldest);
    }
    return known;
  }

  /** One page, newest first, and the filter's total, read from one snapshot of the file. */
  page(filter: JournalFilter, offset: number, limit: number): { rows: unknown[]; total: number } {
    return this.readSnapshot(() => {
      const w = whereClause(filter);
      const known = this.knownFor(w);
      const total = (known.total ??= countOf(this.statements, filter));
      if (offset >= total) return { rows: [], total };
      // No more than the rows there are: a walk in id order asked for more would step over
      // every entry left in the index looking for them.
      const take = Math.min(limit, total - offset);
      const after = total - offset - take; // rows older than the page
      const newest = byId(w, 'DESC') === 'id';
      const oldest = byId(w, 'ASC') === 'id';
      if (newest && offset < this.directSkip) {
        return { rows: this.rows(w, 'DESC', '', { limit: take, offset }), total };
      }
      if (oldest && after < this.directSkip) {
        // Near the end: counted from the oldest, then put newest first.
        const rows = this.rows(w, 'ASC', '', { limit: take, offset: after });
        return { rows: rows.reverse(), total };
      }
      // From an anchor, counted from the nearer end an index walks in id order; when the
      // dates bound both, from the newest, every match read once and sorted.
      const end = oldest && (!newest || after < offset) ? 'ASC' : 'DESC';
      const anchors = (known.anchors[end] ??= new EndAnchors(this.anchorEvery, total, (last, n) =>
        this.ids(w, end, newest || oldest, last, n),
      ));
      const from = anchors.at(end === 'DESC' ? offset : after, !newest && !oldest);
      if (from === undefined) return { rows: [], total };
      const params = { anchor: from.anchor, limit: take, offset: from.step };
      if (end === 'DESC') return { rows: this.rows(w, 'DESC', 'id <= @anchor', params), total };
      return { rows: this.rows(w, 'ASC', 'id >= @anchor', params).reverse(), total };
    });
  }

  /**
   * Rows by position: the positions are stepped over in an index (the inner query reads ids
   * only), and only the rows of the page are read whole.
   */
  private rows(
    w: Where,
    order: 'ASC' | 'DESC',
    condition: string,
    params: { limit: number; offset: number; anchor?: bigint },
  ): unknown[] {
    const where = condition ? and(w.where, condition) : w.where;
    // From an anchor the walk starts at a match; from an end, only when the filter's dates do
    // not bound that end (see byId).
    const id = condition ? 'id' : byId(w, order);
    return this.statement(
      `SELECT * FROM journal WHERE id IN (
         SELECT id FROM journal ${where} ORDER BY ${id} ${order} LIMIT @limit OFFSET @offset
       ) ORDER BY id ${order}`,
    )
      .safeIntegers(true)
      .all({ ...w.params, ...params });
  }

  /**
   * Up to `count` of the filter's ids in `order`, after `last`: one walk of an index in id
   * order, which stops at the count. Without such a walk (`walks` false: the dates bound both
   * ends), every id in the dates, sorted.
   */
  private ids(
    w: Where,
    order: 'ASC' | 'DESC',
    walks: boolean,
    last: bigint | undefined,
    count: number,
  ): bigint[] {
    const ids = (sql: string, params: Record<string, unknown>) =>
      this.statement(sql).pluck().safeIntegers(true).all(params) as bigint[];
    if (!walks)
      return sortingInFiles(this.db, () =>
        ids(`SELECT id FROM journal ${w.where} ORDER BY +id DESC`, w.params),
      );
    if (last === undefined)
      return ids(`SELECT id FROM journal ${w.where} ORDER BY id ${order} LIMIT @count`, {
        ...w.params,
        count,
      });
    const beyond = and(w.where, order === 'DESC' ? 'id < @last' : 'id > @last');
    return ids(`SELECT id FROM journal ${beyond} ORDER BY id ${order} LIMIT @count`, {
      ...w.params,
      last,
      count,
    });
  }

  /**
   * The filter's totals per currency and action (journal/totals.ts), from SQLite's groups; with
   * `upTo`, of the entries up to that id only (an export's, whose lines start from it).
   */
  totals(filter: JournalFilter, upTo?: bigint): JournalTotals {
    const w = whereClause(filter);
    const where = upTo === undefined ? w.where : and(w.where, 'id <= @upTo');
    // The walk that reads the fewest rows (journal-walks.ts).
    const walk = totalsWalk(this.statements, filter);
    const statement = this.statement(totalsGroupsSql(walk.from, where, walk.byIndex));
    const groups = sortingInFiles(this.db, () =>
      statement.safeIntegers(true).all(upTo === undefined ? w.params : { ...w.params, upTo }),
    ) as TotalsGroup[];
    return totalsOfGroups(groups);
  }

  /** How many entries match the filter (not kept: an export counts once). */
  count(filter: JournalFilter): number {
    return countOf(this.statements, filter);
  }

  /** The export's total, and the ids its rows lie between (journal-export-slices.ts). */
  matches(filter: JournalFilter): Matches {
    return matchesOf(this.statements, filter);
  }

  /** Runs `read` in one read transaction: the total and the rows come from the same state. */
  private readSnapshot<T>(read: () => T): T {
    if (this.db.inTransaction) return read();
    return this.db.transaction(read).deferred();
  }

  /** The newest entry's id, where batches start (null: the journal is empty). */
  private newestId(): bigint | null {
    return this.statement('SELECT MAX(id) FROM journal').pluck().safeIntegers(true).get() as
      bigint | null;
  }

  /**
   * The filter's rows, newest first, `size` at a time; each batch is its own short query, so
   * the connection is free for other work between batches (an open iterator would hold it).
   * Rows written after the first batch are not included.
   */
  *batches(filter: JournalFilter, size: number): Generator<unknown[]> {
    const w = whereClause(filter);
    const newest = this.newestId();
    if (newest === null) return;
    const next = this.statement(
      `SELECT * FROM journal ${and(w.where, 'id <= @below')} ORDER BY id DESC LIMIT @size`,
    ).safeIntegers(true);
    let below = newest;
    for (;;) {
      const rows = next.all({ ...w.params, below, size }) as { id: bigint }[];
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < size) return;
      below = (rows[rows.length - 1]?.id ?? 1n) - 1n;
    }
  }
}
