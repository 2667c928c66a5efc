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

import type Database from 'better-sqlite3';

type Db = Database.Database;

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  private queue: Queued[] = [];

  constructor(private readonly db: Db) {}

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
    try {
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
