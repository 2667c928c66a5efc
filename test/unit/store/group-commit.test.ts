// Write-ahead entries decided at the same moment share one commit (main/store/sqlite/group-commit.ts):
// each is refused alone when its own work throws, all are refused when the commit fails, and
// an entry is visible to another connection once its promise resolves.

import { mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { KeptWalFile, syncFile, WalSync } from '../../../main/store/sqlite/durability';
import { GroupCommit, NotDurableError } from '../../../main/store/sqlite/group-commit';

let dir: string;
let file: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-group-commit-'));
  file = join(dir, 'paydesk.sqlite');
  db = openDatabase(file);
  db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (v: string) => () => db.prepare('INSERT INTO t (v) VALUES (?)').run(v).changes;

function seenByAnother(): string[] {
  const other = new Database(file, { readonly: true });
  try {
    return (other.prepare('SELECT v FROM t ORDER BY v').pluck().all() as string[]).sort();
  } finally {
    other.close();
  }
}

it('commits the work queued together once; a work that throws is undone and refused alone', async () => {
  const group = new GroupCommit(db);
  const results = await Promise.allSettled([
    group.run(insert('a')),
    group.run(() => {
      insert('b')();
      throw new Error('the rules said no');
    }),
    // Sees what the work before it in the same group wrote: a's row is taken.
    group.run(insert('a')),
    group.run(insert('c')),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
  expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('the rules said no'));
  expect(seenByAnother()).toEqual(['a', 'c']);
  expect(db.inTransaction).toBe(false);
});

it('resolves a lone work once it is committed, visible to another connection', async () => {
  const group = new GroupCommit(db);
  const done = group.run(insert('x'));
  expect(seenByAnother()).toEqual([]); // queued, not yet written
  await expect(done).resolves.toBe(1);
  expect(seenByAnother()).toEqual(['x']);
});

it('refuses every work of the group when the transaction cannot be taken', async () => {
  const group = new GroupCommit(db);
  const busy = openDatabase(file, { busyTimeoutMs: 10 });
  const busyGroup = new GroupCommit(busy);
  // Another process holds the write lock for longer than the busy timeout.
  const blocker = new Database(file, { timeout: 0 });
  blocker.exec('BEGIN IMMEDIATE');
  const results = await Promise.allSettled([busyGroup.run(() => 1), busyGroup.run(() => 2)]);
  blocker.exec('ROLLBACK');
  blocker.close();
  busy.close();
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  await expect(group.run(insert('y'))).resolves.toBe(1);
});

it('commits a group of answers without waiting for the disk, and the next write-ahead waits again', async () => {
  // synchronous: 2 = FULL (the commit waits for an fsync), 1 = NORMAL (durability.ts).
  const synchronous = () => db.pragma('synchronous', { simple: true });
  const answers = new GroupCommit(db, { durable: false });
  const writeAhead = new GroupCommit(db);
  const seen = await Promise.all([
    answers.run(() => (insert('ack')(), synchronous())),
    answers.run(() => (insert('final')(), synchronous())),
  ]);
  expect(seen).toEqual([1, 1]);
  await expect(writeAhead.run(synchronous)).resolves.toBe(2);
  expect(synchronous()).toBe(2);
  expect(seenByAnother()).toEqual(['ack', 'final']);
});

// The write-ahead fsync off the main thread (durability.ts WalSync): an entry's promise resolves
// only after an fsync of the WAL that started after its commit, and a failed fsync refuses the group.

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

// A write-ahead alone (no other action being decided or sent) is committed at once and synced
// on this thread; with company queued it joins the group and shares the pool's fsync.

it('commits a work alone at once and syncs it on this thread before it resolves', async () => {
  const { started, sync } = heldSyncs();
  const now: string[] = [];
  const syncNow = (path: string) => {
    // Committed (another connection sees it) when the sync runs, and not yet resolved.
    now.push(`${path}: ${seenByAnother().join(',')}`);
  };
  const group = new GroupCommit(db, {
    durable: true,
    walSync: new WalSync(`${file}-wal`, sync, syncNow),
  });
  const written = group.run(insert('a'), { alone: true });
  // No turn of the event loop: committed and synced before run returned.
  expect(now).toEqual([`${file}-wal: a`]);
  await expect(written).resolves.toBe(1);
  expect(started).toHaveLength(0);

  // Not alone: queued for the turn's group, synced on the pool, and a work alone that comes
  // while one is queued joins it.
  const queued = group.run(insert('b'));
  const joined = group.run(insert('c'), { alone: true });
  expect(seenByAnother()).toEqual(['a']);
  await tick();
  await tick();
  expect(seenByAnother()).toEqual(['a', 'b', 'c']);
  expect(started).toHaveLength(1);
  started[0]?.finish();
  await expect(Promise.all([queued, joined])).resolves.toEqual([1, 1]);
  expect(now).toHaveLength(1);
});

it('a work alone whose sync fails is refused with a disk error that carries what it wrote', async () => {
  const { sync } = heldSyncs();
  const failing = () => {
    throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
  };
  const group = new GroupCommit(db, {
    durable: true,
    walSync: new WalSync(`${file}-wal`, sync, failing),
  });
  const error = (await group
    .run(() => 'entry a', { alone: true })
    .catch((e: unknown) => e)) as NotDurableError;
  expect(error).toBeInstanceOf(NotDurableError);
  expect(error.committed).toBe('entry a');
  expect(error.message).toMatch(/could not be synced to disk: EIO/);
  // A work alone that throws is undone, as in a group.
  await expect(
    group.run(
      () => {
        insert('z')();
        throw new Error('the rules said no');
      },
      { alone: true },
    ),
  ).rejects.toThrow('the rules said no');
  expect(seenByAnother()).toEqual([]);
  expect(db.inTransaction).toBe(false);
});

it('syncs on this thread through the kept WAL file, which it opens once', () => {
  const wal = `${file}-wal`;
  const kept = new KeptWalFile(60_000);
  const walSync = new WalSync(wal, kept.sync, kept.syncNow);
  expect(walSync.canSyncNow).toBe(true);
  insert('x')();
  const sqliteOwn = openCopies(wal);
  walSync.flushNow();
  walSync.flushNow();
  expect(openCopies(wal)).toBe(sqliteOwn + 1);
  void kept.close();
  expect(openCopies(wal)).toBe(sqliteOwn);
  expect(new WalSync(wal, kept.sync).canSyncNow).toBe(false);
});

// The WAL file stays open between fsyncs (durability.ts KeptWalFile): a burst of flushes opens
// it once, not once per flush, and it is closed after a pause and after a failed sync.

/** How many of this process's open files are `path`. */
function openCopies(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

it('keeps the WAL file open across a burst of fsyncs, then closes it', async () => {
  const wal = `${file}-wal`;
  let opens = 0;
  const kept = new KeptWalFile(50, (path) => {
    opens++;
    return open(path, 'r+');
  });
  const walSync = new WalSync(wal, kept.sync);
  // SQLite's own connection holds the WAL open too.
  const sqlites = openCopies(wal);
  for (let i = 0; i < 20; i++) {
    insert(`v${i}`)();
    await walSync.flush();
  }
  expect(opens).toBe(1);
  expect(openCopies(wal)).toBe(sqlites + 1);
  await expect.poll(() => openCopies(wal), { interval: 20, timeout: 2_000 }).toBe(sqlites);
  await walSync.flush();
  expect(opens).toBe(2);
  await kept.close();
  expect(openCopies(wal)).toBe(sqlites);
});

it('a failed fsync closes the kept file and the next flush opens it again', async () => {
  const wal = `${file}-wal`;
  let opens = 0;
  let failNext = false;
  const kept = new KeptWalFile(60_000, async (path) => {
    opens++;
    const handle = await open(path, 'r+');
    const datasync = handle.datasync.bind(handle);
    handle.datasync = () => {
      if (!failNext) return datasync();
      failNext = false;
      return Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    };
    return handle;
  });
  const walSync = new WalSync(wal, kept.sync);
  const sqlites = openCopies(wal);
  await walSync.flush();
  failNext = true;
  await expect(walSync.flush()).rejects.toThrow(/EIO/);
  expect(openCopies(wal)).toBe(sqlites);
  await walSync.flush();
  expect(opens).toBe(2);
  await kept.close();
});
