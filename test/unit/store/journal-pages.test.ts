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
import { JournalPages, whereClause } from '../../../main/store/sqlite/journal-pages';
import { Profiles } from '../../../main/store/sqlite/profiles';

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
      `INSERT INTO journal (client_orderid, profile_id, operator, operation, amount_minor, currency,
         email, summary, state, status, created_at, updated_at)
       VALUES (?, ?, 'ann', ?, 100, 'EUR', ?, '{}', ?, ?, ?, ?)`,
    )
    .run(
      `pd-${++serial}`,
      profileId,
      i % 3 === 0 ? 'CAPTURE' : 'RETURN',
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

/** What any page must equal: the plain query. */
function expected(filter: JournalFilter, offset: number, limit: number) {
  const { where, params } = whereClause(filter);
  const ids = db
    .prepare(`SELECT id FROM journal ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
    .pluck()
    .all({ ...params, limit, offset })
    .map(Number);
  const total = Number(db.prepare(`SELECT COUNT(*) FROM journal ${where}`).pluck().get(params));
  return { ids, total };
}

function actual(pages: JournalPages, filter: JournalFilter, offset: number, limit: number) {
  const page = pages.page(filter, offset, limit);
  return { ids: (page.rows as { id: bigint }[]).map((r) => Number(r.id)), total: page.total };
}

const FILTERS: JournalFilter[] = [
  {},
  { status: 'approved' },
  { status: 'approved', from: new Date(START + 200 * 3_600_000).toISOString() },
  { pending: true },
  { email: 'customer3@example.com' },
  { operation: 'CAPTURE', to: new Date(START + 900 * 3_600_000).toISOString() },
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
  const hour = (i: number) => new Date(START + i * 3_600_000).toISOString();
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
