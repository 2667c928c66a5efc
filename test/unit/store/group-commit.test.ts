// Write-ahead entries decided at the same moment share one commit (main/store/group-commit.ts):
// each is refused alone when its own work throws, all are refused when the commit fails, and
// an entry is visible to another connection once its promise resolves.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/database';
import { GroupCommit } from '../../../main/store/group-commit';

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
