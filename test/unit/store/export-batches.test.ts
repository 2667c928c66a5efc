// The CSV export's batches (main/store/sqlite/journal-export-slices.ts readBatch) are read a part
// at a time: every entry the filter matches is in the file once, newest first, whatever the
// batch's size against the part's, where a slice ends inside a part, and with the work shared
// with a worker thread or not. Checked against the journal's own listing by SQL, not against
// another export.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JournalFilter } from '../../../main/store/journal/filter';
import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { snapshotCsvChunks } from '../../../main/store/sqlite/journal-export';
import { profilesNamed } from '../../support/profiles';

/** More than a few parts of a read (200 rows) in every batch size below but the smallest. */
const ENTRIES = 2_345;

let dir: string;
let db: Db;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-export-batches-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  const [profile] = profilesNamed(db, ['Shop']);
  const insert = db.prepare(
    `INSERT INTO journal (client_orderid, profile_id, operator, operation, orderid, amount_minor,
       currency, summary, state, status, created_at, updated_at, final_at)
     VALUES (?, ?, 'ann', 'RETURN', ?, ?, 'EUR', '{}', 'final', ?, ?, ?, ?)`,
  );
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  db.transaction(() => {
    for (let i = 0; i < ENTRIES; i++) {
      const at = new Date(start + i * 60_000).toISOString();
      // Every third approved: a filter whose matches lie apart, so a slice of ids ends anywhere.
      const status = i % 3 === 0 ? 'approved' : 'declined';
      insert.run(`pd-${i}`, profile!.id, String(7_000_000 + i), 100 + i, status, at, at, at);
    }
  })();
  // Ids with holes, as a journal whose entries were written in another order may have.
  db.exec("DELETE FROM journal WHERE client_orderid IN ('pd-5', 'pd-6', 'pd-7', 'pd-1000')");
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The client_orderid of every line of the export, in the file's order. */
async function exportedIds(filter: JournalFilter, size: number, parallelFrom: number) {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of snapshotCsvChunks(db, filter, size, (id) => id, { parallelFrom })) {
    text += typeof chunk.content === 'string' ? chunk.content : decoder.decode(chunk.content);
    chunk.release?.();
  }
  // The seventh cell is the client_orderid; every cell of these entries is plain.
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(',')[6]);
}

function listedIds(where: string): string[] {
  return db
    .prepare(`SELECT client_orderid FROM journal ${where} ORDER BY id DESC`)
    .pluck()
    .all() as string[];
}

describe('the CSV export read a part of a batch at a time', () => {
  const cases: [string, JournalFilter, string][] = [
    ['every entry', {}, ''],
    ['one entry in three', { status: 'approved' }, "WHERE status = 'approved'"],
  ];
  for (const [name, filter, where] of cases) {
    for (const size of [7, 200, 201, 450, 1_000]) {
      for (const [threads, parallelFrom] of [
        ['on one thread', Infinity],
        ['shared with a worker', 50],
      ] as const) {
        it(`${name}, batches of ${size}, ${threads}: each entry once, newest first`, async () => {
          const ids = await exportedIds(filter, size, parallelFrom);
          expect(ids).toEqual(listedIds(where));
        });
      }
    }
  }
});
