// How far each commit goes before the app moves on. The database runs in WAL mode with
// `synchronous = FULL`: every commit waits for an fsync of the WAL, on the main thread, and
// the refund path made several of them per refund. Only one of them needs that wait:
//
// - The write-ahead entry (the journal entry of a request about to leave) keeps it: its commit
//   returns once the entry is on disk, and the request leaves right after. Whoever sees the
//   entry (another window, another process, a test watching the file) may rely on it being
//   durable already.
// - A record of an answer (acknowledged, final, refused, unknown) and the recent-orders list
//   commit without the fsync (`synchronous = NORMAL`: appended to the WAL, safe from a process
//   crash). A power cut may lose the last few, which leaves their entries as they were before
//   the answer (sending or acknowledged): in flight, counted as pending, and asked about by
//   `status` at the next start, as any entry whose answer was lost. The WAL is written in
//   order, so the next fsync'd commit (the next write-ahead entry) makes them durable too.
//
// Everything else (write-ahead entries, settlements by hand, profiles, keys, batches) keeps the
// fsync of every commit.

import type Database from 'better-sqlite3';

type Db = Database.Database;

/**
 * Runs `write` (one or more statements or transactions that commit) without waiting for the
 * disk: safe from a process crash, not from a power cut, until the next fsync'd
 * commit. Inside a transaction it simply runs: the outer transaction's commit decides.
 */
export function withoutFsync<T>(db: Db, write: () => T): T {
  if (db.inTransaction || db.memory || db.readonly) return write();
  // db.pragma each time: SQLite applies this pragma when it compiles it, not when it runs.
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = FULL');
  }
}
