// Backups of the desk's database. The journal is the audit trail of every refund a company made,
// and on a desk it is one SQLite file: a copy of that file while Paydesk runs could catch a
// half-written page or miss what still sits in the WAL, so a backup is made through SQLite's
// online backup API (better-sqlite3's db.backup) on the app's own connection. It copies a
// consistent snapshot a few pages at a time, letting the journal's writes go on between steps.
// The copy is written under a .partial name, switched to a single self-contained file
// (journal_mode DELETE), proved whole with integrity_check on a worker thread (backup-check.ts:
// for a large journal that takes seconds the main process's thread cannot spare), and only then
// given its name: a file named paydesk-<time>.sqlite in the folder is always a whole, checked
// backup. While SQLite writes the copy, it is flushed to disk on libuv's pool: the copy's last
// step commits with an fsync of whatever is not on disk yet, which for a large file held the main
// thread for a large part of a second. A backup can be stopped (Paydesk quitting): the copy stops at its next step, or the
// check ends early, and the .partial is removed, so quitting never waits for a large file.
//
// A backup cut short by a power cut or a killed process cannot remove its .partial; the sweep
// (sweepLeftovers, at start and before each backup) does, matching only the exact names a backup
// writes, and only once they have not changed for an hour: a share may hold another desk's
// backup under way, whose copy is written as it grows.
//
// Retention keeps the newest backup of each of the last 7 days that have one and of each of the
// last 4 weeks (Monday to Sunday, UTC) that have one; nothing else in the folder is touched.

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { checkCopyOffThread } from './backup-check';
import type { Db } from './database';

export { checkBackup } from './backup-check';

export interface BackupFile {
  /** The file's name in the backup folder: paydesk-2026-11-27T12-00-00-000Z.sqlite. */
  name: string;
  path: string;
  /** When the backup began (from its name), ISO 8601. */
  takenAt: string;
  bytes: number;
}

export interface BackupOptions {
  /** Pages copied per step; between steps the app's own writes go on. */
  pagesPerStep?: number;
  now?: () => Date;
  /** Stops the backup: it then rejects with the signal's reason, leaving no file behind. */
  signal?: AbortSignal;
  /**
   * Whether a missing folder is made (true by default). False for a folder the person chose: a
   * share that is not connected must not get a folder of its own on this disk.
   */
  makeFolder?: boolean;
}

const NAME = /^paydesk-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.sqlite$/;
/** A backup's unfinished copy and the files SQLite keeps beside it while writing it. */
const PARTIAL_NAME =
  /^paydesk-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.sqlite\.partial(?:-journal|-wal|-shm)?$/;
/** A partial unchanged this long is no backup under way (a copy is written as it grows). */
export const LEFTOVER_AFTER_MS = 60 * 60 * 1000;

function nameFor(at: Date): string {
  return `paydesk-${at.toISOString().replace(/[:.]/g, '-')}.sqlite`;
}

function takenAtOf(name: string): string | undefined {
  const m = NAME.exec(name);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` : undefined;
}

/** Copy steps between two flushes of the copy (32 MiB at 256 pages of 4 KiB). */
const STEPS_PER_FLUSH = 32;

/** Flushes `file` to disk every few steps, off the main thread, one flush at a time. */
function flushAsItGrows(file: string) {
  let steps = 0;
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    const handle = await open(file, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  };
  return {
    step(): void {
      if (++steps % STEPS_PER_FLUSH !== 0 || flushing) return;
      flushing = flush()
        .catch(() => undefined) // only an early flush: SQLite's commit syncs the copy anyway
        .finally(() => (flushing = undefined));
    },
    /** Settles once no flush holds the file open (it can then be renamed or removed). */
    settled: (): Promise<void> => flushing ?? Promise.resolve(),
  };
}

/**
 * Backs `db` up into `folder` (made if missing, unless `options.makeFolder` is false) and returns the new backup. Throws, leaving no
 * file under a backup's name, when the copy cannot be made or does not pass integrity_check, or
 * when `options.signal` stops it.
 */
export async function backupDatabase(
  db: Db,
  folder: string,
  options: BackupOptions = {},
): Promise<BackupFile> {
  if (options.makeFolder ?? true) mkdirSync(folder, { recursive: true });
  else if (!existsSync(folder))
    throw new Error(
      `the folder ${folder} is not there. Connect the disk or network share it is on, or choose another folder in Settings -> Backups.`,
    );
  const at = (options.now ?? (() => new Date()))();
  const name = nameFor(at);
  const path = join(folder, name);
  const partial = `${path}.partial`;
  const pages = options.pagesPerStep ?? 256;
  const { signal } = options;
  const flusher = flushAsItGrows(partial);
  try {
    signal?.throwIfAborted();
    await db
      .backup(partial, {
        progress: () => {
          signal?.throwIfAborted(); // better-sqlite3 ends the copy when its progress callback throws
          flusher.step();
          return pages;
        },
      })
      .finally(flusher.settled);
    const problem = await checkCopyOffThread(partial, signal);
    if (problem) throw new Error(`The backup did not pass its integrity check: ${problem}`);
    signal?.throwIfAborted();
    renameSync(partial, path);
  } catch (error) {
    for (const suffix of ['', '-journal', '-wal', '-shm'])
      rmSync(partial + suffix, { force: true });
    throw error;
  }
  return { name, path, takenAt: at.toISOString(), bytes: statSync(path).size };
}

/** The backups in `folder`, newest first (none when the folder does not exist). */
export function listBackups(folder: string): BackupFile[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const found: BackupFile[] = [];
  for (const name of names) {
    const takenAt = takenAtOf(name);
    if (!takenAt) continue;
    try {
      const path = join(folder, name);
      found.push({ name, path, takenAt, bytes: statSync(path).size });
    } catch {
      // Removed while we looked.
    }
  }
  return found.sort((a, b) => b.takenAt.localeCompare(a.takenAt));
}

/**
 * Removes what backups cut short left in `folder` (their .partial copies and SQLite's files
 * beside them) once unchanged for LEFTOVER_AFTER_MS; returns their names. Any other file stays.
 */
export async function sweepLeftovers(folder: string, now: Date = new Date()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return []; // No folder yet: nothing left over.
  }
  const removed: string[] = [];
  for (const name of names.filter((n) => PARTIAL_NAME.test(n))) {
    const path = join(folder, name);
    try {
      const found = await stat(path);
      if (!found.isFile() || now.getTime() - found.mtimeMs < LEFTOVER_AFTER_MS) continue;
      await rm(path, { force: true });
      removed.push(name);
    } catch {
      // Removed meanwhile, or not ours to remove: left as it is.
    }
  }
  return removed;
}

export const RETENTION = { days: 7, weeks: 4 } as const;

/** Monday of the UTC week holding `iso`, as YYYY-MM-DD. */
function weekOf(iso: string): string {
  const day = new Date(iso.slice(0, 10) + 'T00:00:00Z');
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day.toISOString().slice(0, 10);
}

/** Which of `backups` (newest first) the retention keeps. */
export function backupsToKeep(backups: readonly BackupFile[]): Set<string> {
  const keep = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  for (const backup of backups) {
    const day = backup.takenAt.slice(0, 10);
    if (!days.has(day) && days.size < RETENTION.days) {
      days.add(day);
      keep.add(backup.name);
    }
    const week = weekOf(backup.takenAt);
    if (!weeks.has(week) && weeks.size < RETENTION.weeks) {
      weeks.add(week);
      keep.add(backup.name);
    }
  }
  return keep;
}

/** Removes the backups in `folder` the retention does not keep; returns their names. */
export function pruneBackups(folder: string): string[] {
  const backups = listBackups(folder);
  const keep = backupsToKeep(backups);
  const removed: string[] = [];
  for (const backup of backups) {
    if (keep.has(backup.name)) continue;
    rmSync(backup.path, { force: true });
    removed.push(backup.name);
  }
  return removed;
}
