// Write-ahead entries of actions decided at the same moment share one commit, and so one fsync.
//
// A write-ahead entry must be on disk before its request leaves, so its commit waits for an
// fsync of the WAL. Under synchronous = FULL that wait blocked the main thread (better-sqlite3
// is synchronous): sixteen refunds at once queued behind sixteen fsyncs, one after the other,
// and nothing else ran meanwhile. Here each decision is queued, and at the next turn of the
// event loop every decision queued by then runs in one IMMEDIATE transaction, each in its own
// savepoint (one that throws is rolled back alone and refused alone), and one COMMIT writes
// them all. The fsync then runs on libuv's thread pool (durability.ts, WalSync): the next
// group can be decided and committed while the disk works, and its fsync follows. Each
// promise resolves once its entry is on disk; the entry is visible to other connections from
// its commit.
//
// Records of answers (durability.ts: committed without the fsync) are grouped the same way in
// a queue of their own: sixteen answers arriving together were sixteen transactions, each
// writing the same index pages to the WAL again and switching `synchronous` twice.
//
// A work its caller says is alone (`run(work, { alone: true })`: no other action of the process
// is being decided or sent, so nothing could join its group) with nothing queued is committed
// at once, and a durable one is synced on this thread (WalSync.flushNow): waiting a turn of the
// event loop for company that cannot come, and the pool's thread for the fsync, only added
// their own waits to the disk's. The promise still resolves only once the entry is on disk.

import type Database from 'better-sqlite3';

import { withoutFsync, type WalSync } from './durability';
import { describeStoreProblem, StoreError } from '../errors';

type Db = Database.Database;

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * A durable group was committed, but the fsync of the WAL after it failed: its writes are in
 * the file and seen by other connections, but not known to be on disk. `committed` is what
 * this work returned, so its caller can undo what must not stand (a write-ahead entry whose
 * request will now never leave).
 */
export class NotDurableError extends StoreError {
  constructor(
    readonly committed: unknown,
    file: string,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      'IO',
      describeStoreProblem('IO', file, `the journal could not be synced to disk: ${detail}`),
      {
        cause,
        file,
      },
    );
  }
}

export class GroupCommit {
  private queue: Queued[] = [];
  // Made once: better-sqlite3 builds four wrapped functions for every db.transaction() call.
  private readonly inSavepoint: (work: () => unknown) => unknown;
  private readonly commitGroup: (group: Queued[], outcomes: Outcome[]) => void;

  /**
   * `durable: false` commits the group without waiting for the disk (durability.ts): only for
   * records a power cut may lose, never for a write-ahead entry. A durable group with a
   * `walSync` commits without SQLite's fsync and resolves once `walSync` has synced the WAL,
   * without blocking the main thread meanwhile; without one (an in-memory database) SQLite
   * syncs as it commits.
   */
  constructor(
    private readonly db: Db,
    private readonly options: { durable: boolean; walSync?: WalSync } = { durable: true },
  ) {
    // Nested in the group's transaction: a savepoint, rolled back by itself when the work throws.
    this.inSavepoint = db.transaction((work: () => unknown) => work());
    const inGroup = db.transaction((group: Queued[], outcomes: Outcome[]) => {
      // Work alone in its group needs no savepoint: its throw rolls the transaction back, and
      // flush refuses it with that error, as its savepoint's rollback would have.
      const [only] = group;
      if (only && group.length === 1) {
        outcomes.push({ ok: true, value: only.work() });
        return;
      }
      for (const queued of group) {
        try {
          outcomes.push({ ok: true, value: this.inSavepoint(queued.work) });
        } catch (error) {
          // An error SQLite ended the whole transaction for (a full disk): the rest of the
          // group would run outside it, so all of it is refused.
          if (!this.db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
    });
    this.commitGroup = (group, outcomes) => inGroup.immediate(group, outcomes);
  }

  /**
   * Runs `work` (reads and writes, synchronous) in a transaction shared with the other work
   * queued now; resolves with its result once the transaction has committed (and, durable,
   * is on disk). A throw of `work` rejects its own promise and undoes only its own writes; a
   * failed commit rejects them all; a failed sync rejects them all with NotDurableError.
   */
  run<T>(work: () => T, options: { alone?: boolean } = {}): Promise<T> {
    const { durable, walSync } = this.options;
    if (options.alone && this.queue.length === 0 && (!durable || !walSync || walSync.canSyncNow))
      return this.runAlone(work);
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** A work alone: committed now and, durable, synced on this thread (see the file's top). */
  private runAlone<T>(work: () => T): Promise<T> {
    // A throw of the executor rejects the promise: the work's own, the commit's or the sync's.
    return new Promise<T>((resolve) => resolve(this.commitAlone(work)));
  }

  private commitAlone<T>(work: () => T): T {
    const outcomes: Outcome[] = [];
    this.commit([{ work, resolve: () => undefined, reject: () => undefined }], outcomes);
    const outcome = outcomes[0];
    if (!outcome?.ok) throw outcome?.error;
    const { durable, walSync } = this.options;
    if (durable && walSync) {
      try {
        walSync.flushNow();
      } catch (error) {
        throw new NotDurableError(outcome.value, this.db.name, error);
      }
    }
    return outcome.value as T;
  }

  /**
   * Commits the group in one transaction, each outcome in `outcomes`: without SQLite's fsync
   * unless it is durable with no WalSync to do it (an in-memory database). Throws when the
   * transaction could not start or commit: then nothing of the group was written.
   */
  private commit(group: Queued[], outcomes: Outcome[]): void {
    const { durable, walSync } = this.options;
    const commit = () => this.commitGroup(group, outcomes);
    if (durable && !walSync) commit();
    else withoutFsync(this.db, commit);
  }

  private flush(): void {
    const group = this.queue;
    this.queue = [];
    const outcomes: Outcome[] = [];
    const { durable, walSync } = this.options;
    try {
      this.commit(group, outcomes);
    } catch (error) {
      // The transaction could not start or commit: nothing of the group was written.
      for (const queued of group) queued.reject(error);
      return;
    }
    const settle = () =>
      group.forEach((queued, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok) queued.resolve(outcome.value);
        else queued.reject(outcome?.error);
      });
    if (!durable || !walSync) {
      settle();
      return;
    }
    walSync.flush().then(settle, (error: unknown) =>
      group.forEach((queued, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok) queued.reject(new NotDurableError(outcome.value, this.db.name, error));
        else queued.reject(outcome?.error);
      }),
    );
  }
}
