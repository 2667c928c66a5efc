// Journal pages by offset are exactly the rows a plain `ORDER BY id DESC LIMIT OFFSET` gives,
// on every path (near the newest, near the oldest, from an anchor), for every filter, and stay
// so after writes through this connection or another one (nothing stale is served).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import type { JournalFilter } from '../../../main/store/journal/filter';
import { countQuery } from '../../../main/store/sqlite/journal-walks';
import { JournalPages, whereClause } from '../../../main/store/sqlite/journal-pages';
import { Profiles } from '../../../main/store/sqlite/profiles';
import { Statements } from '../../../main/store/sqlite/statements';
import {
  totalsGroupsSql,
  totalsOfGroups,
  type TotalsGroup,
} from '../../../main/store/journal/totals';

const ENTRIES = 1_500;
const START = Date.parse('2026-01-01T00:00:00Z');

let dir: string;
let file: string;
let db: Db;
let profileId: string;
let serial = 0;

function insert(target: Db, i: number): void {
  const at = new Date(START + i * 3_600_000).toISOString();
  const status = ['approved', 'approved', 'declined', null][i % 4] ?? null;
  target
    .prepare(
      `INSERT INTO journal (client_orderid, profile_id, operator, operation, action, amount_minor,
         currency, card_last_four, email, summary, state, status, created_at, updated_at)
       VALUES (?, ?, 'ann', ?, ?, ?, 'EUR', ?, ?, '{}', ?, ?, ?, ?)`,
    )
    .run(
      `pd-${++serial}`,
      profileId,
      i % 3 === 0 ? 'CAPTURE' : 'RETURN',
      i % 3 === 0 ? 'capture' : 'refund',
      100 + (i % 3),
      i % 4 === 1 ? '1111' : null,
      i % 5 === 0 ? `Customer${i % 7}@Example.com` : null,
      status === null ? 'unknown' : 'final',
      status,
      at,
      at,
    );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-pages-'));
  file = join(dir, 'paydesk.sqlite');
  db = openDatabase(file);
  profileId = new Profiles(db).create({
    name: 'P',
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:9/paynet',
    endpointId: '1111',
    login: 'shop',
  }).id;
  db.transaction(() => {
    for (let i = 0; i < ENTRIES; i++) insert(db, i);
  })();
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What any page must equal: the plain query, reading every row (no index chosen for it). */
function expected(filter: JournalFilter, offset: number, limit: number) {
  const { where, params } = whereClause(filter);
  const ids = db
    .prepare(
      `SELECT id FROM journal NOT INDEXED ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
    )
    .pluck()
    .all({ ...params, limit, offset })
    .map(Number);
  const total = Number(
    db.prepare(`SELECT COUNT(*) FROM journal NOT INDEXED ${where}`).pluck().get(params),
  );
  return { ids, total };
}

function actual(pages: JournalPages, filter: JournalFilter, offset: number, limit: number) {
  const page = pages.page(filter, offset, limit);
  return { ids: (page.rows as { id: bigint }[]).map((r) => Number(r.id)), total: page.total };
}

/** The time of the i-th entry written in beforeEach (they are an hour apart). */
const hour = (i: number) => new Date(START + i * 3_600_000).toISOString();

const FILTERS: JournalFilter[] = [
  {},
  { status: 'approved' },
  { status: 'approved', from: hour(200) },
  { pending: true },
  { email: 'customer3@example.com' },
  { operation: 'CAPTURE', to: hour(900) },
];

/**
 * A field with dates, each way round: dates narrower than the field (counted by the dates'
 * index) and wider (by the field's), and a field without an index of its own beside them.
 */
const DATED_FILTERS = (profile: string): JournalFilter[] => [
  { status: 'approved', from: hour(1_400) },
  { status: 'approved', from: hour(10) },
  { status: 'declined', from: hour(100), to: hour(1_450) },
  { status: 'declined', from: hour(700), to: hour(720) },
  { state: 'unknown', from: hour(1_490) },
  { state: 'final', to: hour(30) },
  { pending: true, from: hour(1_300), to: hour(1_400) },
  { pending: true, from: hour(5) },
  { operation: 'RETURN', to: hour(50) },
  { profileId: profile, from: hour(1_490) },
  { profileId: profile, from: hour(1_490), status: 'approved', operation: 'CAPTURE' },
  { currency: 'eur', status: 'approved', from: hour(1_200) },
  { email: 'customer3', status: 'declined', from: hour(1_000) },
  { amount: '1.00', from: hour(1_480) },
  { amount: '1.01', from: hour(1_480) },
  { amountMin: '0.5', amountMax: '2', from: hour(1_450) },
  { amountMin: '0.5', status: 'approved', to: hour(40) },
  { orderRef: 'pd-14', from: hour(1_300) },
  { cardLastFour: '1111', from: hour(1_300) },
  { action: 'refund', from: hour(1_300) },
  { status: 'approved', from: hour(1_600) },
];

describe('journal pages', () => {
  it('equal the plain query at every offset, from either end and from anchors', () => {
    // Small steps: with 1,500 entries every path is taken.
    const pages = new JournalPages(db, { directSkip: 100, anchorEvery: 16 });
    for (const filter of FILTERS) {
      const total = expected(filter, 0, 1).total;
      const offsets = new Set([0, 1, 15, 16, 17, 99, 100, 101, 333, 512, total - 101, total - 1]);
      for (let o = 0; o < total + 20; o += 37) offsets.add(o);
      for (const offset of [...offsets].filter((o) => o >= 0)) {
        for (const limit of [1, 7, 100]) {
          expect(
            actual(pages, filter, offset, limit),
            JSON.stringify({ filter, offset, limit }),
          ).toEqual(expected(filter, offset, limit));
        }
      }
    }
  });

  it('count a field with dates as the plain query does, whichever of them is narrower', () => {
    const pages = new JournalPages(db, { directSkip: 100, anchorEvery: 16 });
    const wide: JournalFilter[] = [
      { amountMin: '0.5' },
      { amountMax: '1.00' },
      { amount: '1.015' },
    ];
    for (const filter of [...DATED_FILTERS(profileId), ...wide]) {
      const total = expected(filter, 0, 1).total;
      expect(pages.count(filter), JSON.stringify(filter)).toBe(total);
      for (const offset of [0, 17, 150, Math.max(0, total - 120), Math.max(0, total - 3)]) {
        expect(actual(pages, filter, offset, 100), JSON.stringify({ filter, offset })).toEqual(
          expected(filter, offset, 100),
        );
      }
    }
  });

  it('count by the index that reads the fewest entries', () => {
    const plan = (filter: JournalFilter) => {
      const q = countQuery(new Statements(db), filter);
      return db
        .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .all(q.params)
        .map((r) => (r as { detail: string }).detail)
        .join(' ');
    };
    // 100 hours of the 1,500, against 750 approved entries: the dates' index.
    expect(plan({ status: 'approved', from: hour(1_400) })).toContain('journal_report');
    expect(plan({ operation: 'RETURN', to: hour(100) })).toContain('journal_report');
    // 1,350 hours against 375 declined entries: the status's own index.
    expect(plan({ status: 'declined', from: hour(100), to: hour(1_450) })).toContain(
      'journal_status_id',
    );
    // An amount two thirds of the entries have: journal_totals, which holds the currency too;
    // one none has: the amount's own index.
    expect(plan({ amountMin: '0.5' })).toContain('journal_totals');
    expect(plan({ amount: '1.015' })).toContain('journal_amount');
  });

  it('total every filter as the plain query does, whichever index it walks', () => {
    const pages = new JournalPages(db);
    const filters = [
      ...FILTERS,
      ...DATED_FILTERS(profileId),
      { state: 'refused' as const },
      { operation: 'CAPTURE', status: 'approved' },
      { currency: 'EUR', pending: true },
      { action: 'refund', state: 'unknown' as const },
      { amountMin: '0.5' },
      { amountMax: '1.00' },
      { amount: '1.01', status: 'approved' },
      { amount: '1.015' },
    ];
    for (const filter of filters) {
      const { where, params } = whereClause(filter);
      const plain = totalsOfGroups(
        db
          .prepare(totalsGroupsSql('journal NOT INDEXED', where, false))
          .safeIntegers(true)
          .all(params) as TotalsGroup[],
      );
      expect(pages.totals(filter), JSON.stringify(filter)).toEqual(plain);
    }
  });

  it('count and total right when the ids do not follow the times (the estimate guessed wrong)', () => {
    // An entry written with an id far above the others, one dated long before its id, and
    // some removed: the ids between two dates say little of the entries between them.
    db.prepare('DELETE FROM journal WHERE id BETWEEN 1300 AND 1400').run();
    db.prepare(
      `INSERT INTO journal (id, client_orderid, profile_id, operator, operation, summary, state,
         status, created_at, updated_at)
       SELECT 9000000000000000, 'pd-far', profile_id, operator, operation, summary, state, status,
         @at, @at FROM journal WHERE id = 2`,
    ).run({ at: hour(5) });
    insert(db, 1);
    const pages = new JournalPages(db);
    for (const filter of DATED_FILTERS(profileId)) {
      expect(pages.count(filter), JSON.stringify(filter)).toBe(expected(filter, 0, 1).total);
      expect(actual(pages, filter, 0, 100)).toEqual(expected(filter, 0, 100));
    }
  });

  it('never serves a stale total or page after a write, here or from another connection', () => {
    const pages = new JournalPages(db, { directSkip: 100, anchorEvery: 16 });
    const check = () => {
      for (const filter of [{}, { status: 'approved' }]) {
        for (const offset of [0, 600, ENTRIES - 50]) {
          expect(actual(pages, filter, offset, 50)).toEqual(expected(filter, offset, 50));
        }
      }
    };
    check();
    insert(db, ENTRIES);
    check();
    // An old entry changes status: it leaves the approved filter, deep in its pages.
    db.prepare("UPDATE journal SET status = 'declined' WHERE id = 400").run();
    check();
    const other = new Database(file);
    try {
      other.prepare("UPDATE journal SET status = 'approved' WHERE id = 401").run();
      insert(other, ENTRIES + 1);
    } finally {
      other.close();
    }
    check();
  });
});

/** The entries' times are an hour apart: these bounds select exactly `total` of them. */
function dated(shape: 'from' | 'to' | 'both', total: number): JournalFilter {
  if (shape === 'from') return { from: hour(ENTRIES - total) };
  if (shape === 'to') return { to: hour(total) };
  return { from: hour(100), to: hour(100 + total) };
}

describe("journal pages with the app's own steps", () => {
  it('equal the plain query at every position near the ends and the anchors, asked in any order', () => {
    // Totals just under, at and just over an anchor step (64) and a direct skip's reach, for a
    // filter whose dates bound the oldest end, the newest end, and both.
    for (const shape of ['from', 'to', 'both'] as const) {
      for (const total of [127, 128, 129, 1_023, 1_024, 1_025]) {
        const filter = dated(shape, total);
        // Every id of the filter, newest first, by the plain query: each page is a slice of it.
        const all = expected(filter, 0, total);
        expect(all.total).toBe(total);
        const offsets: number[] = [];
        for (let o = 0; o < total; o++) {
          if (o < 70 || o > total - 170 || o % 64 < 2 || o % 64 > 62) offsets.push(o);
        }
        // Fresh anchors each way: read as far as the first page asks, from either end.
        for (const order of [offsets, [...offsets].reverse()]) {
          const pages = new JournalPages(db);
          for (const offset of order) {
            for (const limit of [1, 100]) {
              expect(
                actual(pages, filter, offset, limit),
                JSON.stringify({ shape, total, offset, limit }),
              ).toEqual({ ids: all.ids.slice(offset, offset + limit), total });
            }
          }
        }
      }
    }
  });
});
