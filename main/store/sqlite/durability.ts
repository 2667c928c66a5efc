// How far each commit goes before the app moves on. The database runs in WAL mode with
// `synchronous = FULL`: every commit waits for an fsync of the WAL, on the main thread.
//
// - The write-ahead entry (the journal entry of a request about to leave) must be on disk
//   before its request leaves. Its group (group-commit.ts) commits without SQLite's own fsync
//   and then waits for `WalSync`: an fsync of the WAL file on libuv's thread pool, so other
//   refunds' answers, follow-ups and screens go on while the disk works. A write-ahead entry
//   alone (no other action of the process being decided or sent, so none could share its
//   commit) is committed at once and its fsync runs on the main thread (`WalSync.flushNow`):
//   nothing else waits meanwhile, and the pool's thread and the event loop's turn would only
//   add their own wait to the one the disk takes. SQLite writes a
//   commit's frames to the WAL with write() and, under FULL, fsyncs the WAL file right after;
//   WalSync does that same fsync, started after the commit, and the entry's promise resolves
//   only when it has finished: the request still leaves after its entry is durable. (SQLite
//   itself still syncs the WAL before a checkpoint and its header when the WAL is reused, under
//   NORMAL as under FULL.) Meanwhile the entry is visible to other connections before it is
//   durable; a power cut takes both it and anything they did with it, and no request of it
//   has left.
// - A record of an answer (acknowledged, final, refused, unknown) and the recent-orders list
//   commit without the fsync (`synchronous = NORMAL`: appended to the WAL, safe from a process
//   crash). A power cut may lose the last few, which leaves their entries as they were before
//   the answer (sending or acknowledged): in flight, counted as pending, and asked about by
//   `status` at the next start, as any entry whose answer was lost. The WAL is written in
//   order, so the next fsync of the WAL (the next write-ahead entry's) makes them durable too.
//
// - The end of a batch row (batches.ts setRow: done, failed) commits without the fsync too: a
//   row whose end was lost still shows "sending" (that mark is fsync'd), and a resume asks the
//   journal about its stored action id, which it has, so the row is only asked about.
//
// Everything else (write-ahead entries of actions not on an order, settlements by hand,
// profiles, keys, batches and their action ids) keeps SQLite's fsync of every commit.

import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

import type Database from 'better-sqlite3';

type Db = Database.Database;

/**
 * Runs `write` (one or more statements or transactions that commit) without waiting for the
 * disk: safe from a process crash, not from a power cut, until the next fsync'd
 * commit. Inside a transaction it simply runs: the outer transaction's commit decides.
 */
export function withoutFsync<T>(db: Db, write: () => T): T {
  if (db.inTransaction || db.memory || db.readonly) return write();
  // Compiled each time (SQLite applies this pragma when it compiles it, not when it runs), by
  // exec: db.pragma() builds a statement object and reads its rows, ten times the cost.
  db.exec('PRAGMA synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.exec('PRAGMA synchronous = FULL');
  }
}

/** fsync of a file's data (and its size), by path; what WalSync does on the thread pool. */
export async function syncFile(path: string): Promise<void> {
  // 'r+': Windows flushes only a handle opened for writing. Nothing is written through it.
  const handle = await open(path, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** How long a kept WAL file stays open after its last fsync (a burst of refunds keeps it). */
const KEEP_OPEN_MS = 1_000;

/**
 * The WAL file kept open between fsyncs, so a flush is one fdatasync and not an open, a sync and
 * a close. The handle always names the WAL SQLite writes: SQLite deletes a WAL only when its
 * last connection closes, and a flush follows a commit on a connection that is open. It is
 * closed after KEEP_OPEN_MS without a flush (a database closed later leaves no open file
 * behind for long) and after a failed sync (the next flush opens the file again).
 */
export class KeptWalFile {
  private handle: Promise<FileHandle> | undefined;
  /** The descriptor syncNow keeps (a FileHandle cannot be opened without waiting). */
  private fd: number | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly keepOpenMs = KEEP_OPEN_MS,
    private readonly openFile: (path: string) => Promise<FileHandle> = (path) =>
      // 'r+': Windows flushes only a handle opened for writing. Nothing is written through it.
      open(path, 'r+'),
  ) {}

  readonly sync = async (path: string): Promise<void> => {
    // Not closed under a sync that runs for longer than the wait (syncNow cannot be: it blocks).
    clearTimeout(this.idle);
    this.idle = undefined;
    try {
      this.handle ??= this.openFile(path);
      await (await this.handle).datasync();
    } catch (error) {
      await this.close();
      throw error;
    }
    this.keepForNow();
  };

  /** The same fsync on the calling thread: returns once the file's data is on disk. */
  readonly syncNow = (path: string): void => {
    try {
      this.fd ??= openSync(path, 'r+');
      fdatasyncSync(this.fd);
    } catch (error) {
      this.closeNow();
      throw error;
    }
    this.keepForNow();
  };

  /** (Re)starts the wait before closing: one timer, refreshed by every sync, not one each. */
  private keepForNow(): void {
    if (this.idle) {
      this.idle.refresh();
      return;
    }
    this.idle = setTimeout(() => void this.close(), this.keepOpenMs);
    this.idle.unref();
  }

  private closeNow(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // Closed already, or the disk is gone: the next sync opens the file again.
      }
    }
  }

  /** Closes the file now (the next sync opens it again). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    this.idle = undefined;
    this.closeNow();
    const handle = this.handle;
    this.handle = undefined;
    await handle?.then((h) => h.close()).catch(() => undefined);
  }
}

/**
 * The fsync of one database's WAL file, off the main thread and shared: a call resolves once an
 * fsync that started after the call has finished, so everything committed before the call is
 * on disk. Calls made while an fsync runs share the next one, which starts when it ends. The
 * file stays open between fsyncs (KeptWalFile) unless another way of syncing is given.
 */
export class WalSync {
  private running: Promise<void> | undefined;
  private waiting: Promise<void> | undefined;
  private readonly sync: (path: string) => Promise<void>;
  /** The fsync on the calling thread (flushNow); absent when only `sync` was given. */
  private readonly syncNow: ((path: string) => void) | undefined;

  /** By default both syncs are the kept file's; a `sync` given alone leaves no flushNow. */
  constructor(
    readonly walPath: string,
    sync?: (path: string) => Promise<void>,
    syncNow?: (path: string) => void,
  ) {
    if (sync) {
      this.sync = sync;
      this.syncNow = syncNow;
    } else {
      const kept = new KeptWalFile();
      this.sync = kept.sync;
      this.syncNow = syncNow ?? kept.syncNow;
    }
  }

  /**
   * The WalSync of a database's connection; undefined where there is no WAL to sync. `sync`
   * and `syncNow` replace the kept file's (tests hold or fail them).
   */
  static of(
    db: Db,
    sync?: (path: string) => Promise<void>,
    syncNow?: (path: string) => void,
  ): WalSync | undefined {
    if (db.memory || db.readonly) return undefined;
    if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal')
      return undefined;
    return new WalSync(`${db.name}-wal`, sync, syncNow);
  }

  /** True when flushNow can sync on the calling thread. */
  get canSyncNow(): boolean {
    return this.syncNow !== undefined;
  }

  /**
   * Returns once what this process committed before the call is on disk, synced on the calling
   * thread; throws what the sync threw. Only where canSyncNow.
   */
  flushNow(): void {
    if (!this.syncNow) throw new Error('This WAL has no way to be synced on this thread.');
    this.syncNow(this.walPath);
  }

  /** Resolves once what this process committed before the call is on disk. */
  flush(): Promise<void> {
    // The fsync running now may have started before the caller's commit: wait for the next.
    if (this.waiting) return this.waiting;
    if (!this.running) return this.start();
    const waiting = this.running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.waiting = undefined;
        return this.start();
      });
    this.waiting = waiting;
    return waiting;
  }

  private start(): Promise<void> {
    const running: Promise<void> = this.sync(this.walPath).finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}
