// What a journal write puts on disk besides the database and its WAL: nothing. An INSERT of an
// entry inside a transaction keeps the pages it changes in a statement journal (to undo itself
// alone); SQLite moves a statement journal larger than 64 KiB to a temporary file, unnamed or
// unlinked at once, which it keeps open until the transaction ends: seen here among the
// process's open files (Linux's /proc) as a deleted file.

import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { Profiles } from '../../../main/store/sqlite/profiles';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-temp-files-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Deleted files this process holds open: SQLite's temporary files among them. */
function sqliteTempFiles(): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      open.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // Closed meanwhile (the directory's own descriptor).
    }
  }
  return open.filter((path) => path.endsWith('(deleted)'));
}

describe.runIf(process.platform === 'linux')('a journal write', () => {
  it('writes ahead and answers without a temporary file', () => {
    const profileId = new Profiles(db).create({
      name: 'Shop',
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:9/paynet',
      endpointId: '1111',
      login: 'shop',
    }).id;
    const journal = new Journal(db);
    const before = sqliteTempFiles();
    const seen: string[][] = [];
    db.transaction(() => {
      for (let i = 0; i < 20; i++) {
        const clientOrderId = `pd-temp-${i}-abcdef`;
        journal.begin({
          clientOrderId,
          profileId,
          operator: 'clerk',
          operation: 'RETURN',
          targetOrderId: String(7_000_000 + i),
          amountMinor: 250n,
          currency: 'EUR',
          reason: 'Damaged',
          email: 'john@example.com',
          cardLastFour: '1111',
          action: 'partial-refund',
          fields: { client_orderid: clientOrderId, orderid: String(7_000_000 + i) },
        });
        journal.acknowledgeAndFinish(
          clientOrderId,
          { orderId: String(8_000_000 + i) },
          { status: 'approved' },
        );
        seen.push(sqliteTempFiles());
      }
    }).immediate();
    expect(seen.flat().filter((path) => !before.includes(path))).toEqual([]);
  });
});
