// The desk's connection keeps temporary storage in memory (a journal write's statement journal
// never goes to a file) and in files only while a read that may sort a whole journal runs.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { sortingInFiles } from '../../../main/store/sqlite/temp-store';

const MEMORY = 2;
const FILE = 1;

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-temp-store-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const tempStore = () => db.pragma('temp_store', { simple: true });

it('keeps temporary storage in memory once open, in files only inside sortingInFiles', () => {
  expect(tempStore()).toBe(MEMORY);
  expect(sortingInFiles(db, tempStore)).toBe(FILE);
  expect(tempStore()).toBe(MEMORY);
});

it('puts temporary storage back in memory when the read throws', () => {
  expect(() =>
    sortingInFiles(db, () => {
      throw new Error('the read failed');
    }),
  ).toThrow('the read failed');
  expect(tempStore()).toBe(MEMORY);
});

it('changes it inside a read transaction, as the journal pages read', () => {
  const inside = db.transaction(() => sortingInFiles(db, tempStore)).deferred();
  expect(inside).toBe(FILE);
  expect(tempStore()).toBe(MEMORY);
});
