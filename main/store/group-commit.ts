// Write-ahead entries of actions decided at the same moment share one commit, and so one fsync.
//
// A write-ahead entry must be on disk before its request leaves, so its commit waits for an
// fsync of the WAL (synchronous = FULL). That wait blocks the main thread (better-sqlite3 is
// synchronous): sixteen refunds at once would queue behind sixteen fsyncs, one after the other,
// and nothing else runs meanwhile. Here each decision is queued, and at the next turn of the
// event loop every decision queued by then runs in one IMMEDIATE transaction, each in its own
// savepoint (one that throws is rolled back alone and refused alone), and one COMMIT makes them
// all durable at once. Nothing changes for a lone action but a setImmediate: its entry is
// still durable when its promise resolves, and visible to other connections only then.
//
// Records of answers (durability.ts: committed without the fsync) are grouped the same way in
// a queue of their own: sixteen answers arriving together were sixteen transactions, each
// writing the same index pages to the WAL again and switching `synchronous` twice.

import type Database from 'better-sqlite3';

import { withoutFsync } from './durability';

type Db = Database.Database;

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  private queue: Queued[] = [];

  /**
   * `durable: false` commits the group without waiting for the disk (durability.ts): only for
   * records a power cut may lose, never for a write-ahead entry.
   */
  constructor(
    private readonly db: Db,
    private readonly options: { durable: boolean } = { durable: true },
  ) {}

  /**
   * Runs `work` (reads and writes, synchronous) in a transaction shared with the other work
   * queued now; resolves with its result once the transaction has committed. A throw of `work`
   * rejects its own promise and undoes only its own writes; a failed commit rejects them all.
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private flush(): void {
    const group = this.queue;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    const commit = () =>
      this.db
        .transaction(() => {
          for (const queued of group) {
            try {
              // Nested: a savepoint, rolled back by itself when the work throws.
              outcomes.push({ ok: true, value: this.db.transaction(queued.work)() });
            } catch (error) {
              // An error SQLite ended the whole transaction for (a full disk): the rest of the
              // group would run outside it, so all of it is refused.
              if (!this.db.inTransaction) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
    try {
      if (this.options.durable) commit();
      else withoutFsync(this.db, commit);
    } catch (error) {
      // The transaction could not start or commit: nothing of the group was written.
      for (const queued of group) queued.reject(error);
      return;
    }
    group.forEach((queued, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) queued.resolve(outcome.value);
      else queued.reject(outcome?.error);
    });
  }
}
