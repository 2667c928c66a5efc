// The write-ahead entry's fsync off the main thread (main/store/durability.ts WalSync, used by
// main/store/group-commit.ts): an entry's promise resolves only after an fsync of the WAL that
// started after its commit has finished, and a failed fsync refuses the group.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/database';
import { syncFile, WalSync } from '../../../main/store/durability';
import { GroupCommit, NotDurableError } from '../../../main/store/group-commit';

let dir: string;
let file: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-wal-sync-'));
  file = join(dir, 'paydesk.sqlite');
  db = openDatabase(file);
  db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An fsync the test finishes by hand, recording when each one started. */
function heldSyncs() {
  const started: { path: string; finish: (error?: Error) => void }[] = [];
  const sync = (path: string) =>
    new Promise<void>((resolve, reject) => {
      started.push({ path, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { started, sync };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const insert = (v: string) => () => db.prepare('INSERT INTO t (v) VALUES (?)').run(v).changes;

function seenByAnother(): string[] {
  const other = new Database(file, { readonly: true });
  try {
    return other.prepare('SELECT v FROM t ORDER BY v').pluck().all() as string[];
  } finally {
    other.close();
  }
}

it("syncs the database's own WAL file, and there is none to sync in memory", async () => {
  const walSync = WalSync.of(db);
  expect(walSync?.walPath).toBe(`${file}-wal`);
  expect(statSync(`${file}-wal`).isFile()).toBe(true);
  await expect(syncFile(`${file}-wal`)).resolves.toBeUndefined();
  const memory = new Database(':memory:');
  expect(WalSync.of(memory)).toBeUndefined();
  memory.close();
});

it('a call made while an fsync runs waits for the next one; calls made together share it', async () => {
  const { started, sync } = heldSyncs();
  const walSync = new WalSync(`${file}-wal`, sync);
  const done: string[] = [];
  void walSync.flush().then(() => done.push('first'));
  await tick();
  // Committed after the first fsync began: that fsync may not hold these writes.
  void walSync.flush().then(() => done.push('second'));
  void walSync.flush().then(() => done.push('third'));
  expect(started).toHaveLength(1);

  started[0]?.finish();
  await tick();
  expect(done).toEqual(['first']);
  expect(started).toHaveLength(2);

  started[1]?.finish();
  await tick();
  expect(done).toEqual(['first', 'second', 'third']);
  expect(started.map((s) => s.path)).toEqual([`${file}-wal`, `${file}-wal`]);
});

it('a durable group resolves only once the WAL is synced; others see it from its commit', async () => {
  const { started, sync } = heldSyncs();
  const group = new GroupCommit(db, { durable: true, walSync: new WalSync(`${file}-wal`, sync) });
  let resolved = false;
  const written = group.run(insert('a')).then((changes) => {
    resolved = true;
    return changes;
  });
  await tick();
  await tick();
  expect(seenByAnother()).toEqual(['a']);
  expect(started).toHaveLength(1);
  expect(resolved).toBe(false);

  // The next group commits while the first one's fsync runs, and waits for an fsync of its own.
  const next = group.run(insert('b'));
  await tick();
  expect(seenByAnother()).toEqual(['a', 'b']);
  started[0]?.finish();
  await expect(written).resolves.toBe(1);
  await tick();
  expect(started).toHaveLength(2);
  started[1]?.finish();
  await expect(next).resolves.toBe(1);
});

it('a failed fsync refuses the group with a disk error that carries what each work wrote', async () => {
  const { started, sync } = heldSyncs();
  const group = new GroupCommit(db, { durable: true, walSync: new WalSync(`${file}-wal`, sync) });
  const results = Promise.allSettled([group.run(() => 'entry a'), group.run(() => 'entry b')]);
  await tick();
  await tick();
  started[0]?.finish(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
  const [a, b] = await results;
  expect(a?.status).toBe('rejected');
  const error = (a as PromiseRejectedResult).reason as NotDurableError;
  expect(error).toBeInstanceOf(NotDurableError);
  expect(error.code).toBe('IO');
  expect(error.committed).toBe('entry a');
  expect(error.message).toMatch(/disk error .* could not be synced to disk: EIO/);
  expect(((b as PromiseRejectedResult).reason as NotDurableError).committed).toBe('entry b');
});
