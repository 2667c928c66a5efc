// Whether a backup can be trusted: it opens, passes integrity_check and holds a schema this
// Paydesk knows. A backup being made is checked on a worker thread (backup-check-worker.cjs):
// integrity_check of a large journal runs for seconds inside SQLite, and the main process's
// thread must keep answering the bridge, the refunds' follow-ups and their timers meanwhile.
// A restore's check (checkBackup, from journal-file.ts's applyPendingChoice) stays synchronous:
// it runs at start, before the database opens and before any service or bridge call is served.
//
// A check can be stopped (Paydesk quitting): better-sqlite3 offers no sqlite3_interrupt, and a
// worker's terminate() only takes effect once SQLite returns to JavaScript, which the process's
// exit waits for too. So the copy being checked, which is about to be removed anyway, is emptied
// under it: SQLite then finds every page it reads invalid and ends the check at its error limit,
// within a fraction of a second. That is why only a backup's own .partial copy is checked here.

import { truncateSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

import Database from 'better-sqlite3';

// The worker's text (typed by vite/client's `*?raw`, which renderer/src/vite-env.d.ts brings into
// the one tsconfig): see backup-check-worker.cjs for why it is run from its text.
import WORKER_SOURCE from './backup-check-worker.cjs?raw';
import { MIGRATIONS } from './migrations';

/** What the worker (or the synchronous check) read from a backup. */
export interface Findings {
  /** integrity_check's rows: ['ok'] for a whole file. */
  integrity: string[];
  version: number;
}

type WorkerReport = { found: Findings } | { failed: string };

/** What is wrong with a backup that showed `found`, or undefined when it can be trusted. */
function verdictOf(found: Findings): string | undefined {
  const problems = found.integrity.filter((m) => m !== 'ok');
  if (problems.length > 0) return problems.slice(0, 3).join('; ');
  if (found.version > MIGRATIONS.length)
    return `it was written by a newer Paydesk (schema ${found.version}); update Paydesk first`;
  if (found.version === 0) return 'it is not a Paydesk database';
  return undefined;
}

/**
 * What is wrong with the backup at `file`, or undefined when it opens, passes integrity_check
 * and holds a schema this Paydesk knows. Synchronous: only for where nothing is being served yet.
 */
export function checkBackup(file: string): string | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, readonly: true });
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const version = db.pragma('user_version', { simple: true }) as number;
    return verdictOf({ integrity: rows.map((r) => r.integrity_check), version });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}

/** Where better-sqlite3 is, for the eval'd worker, which resolves modules from the working folder. */
function betterSqlite3Path(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

/** Empties `copy`, ending a check under way on it (see the file's opening comment). */
function emptyCopy(copy: string): void {
  try {
    truncateSync(copy, 0);
  } catch {
    // Gone already: nothing is being checked.
  }
}

/**
 * Switches a backup's fresh copy out of WAL (one self-contained file, no -wal or -shm beside it)
 * and checks it on a worker thread: what is wrong with it, or undefined when it can be trusted.
 * Settles once the worker has closed the file. When `signal` aborts, the copy is emptied, the
 * check ends without a verdict and the promise rejects with the signal's reason.
 */
export async function checkCopyOffThread(
  copy: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  signal?.throwIfAborted();
  const report = await runCheckWorker(copy, true, signal, () => emptyCopy(copy));
  if (!report) return 'the check stopped before it finished';
  return 'failed' in report ? report.failed : verdictOf(report.found);
}

/**
 * integrity_check and the schema version of a database in use (the support bundle's look at the
 * live journal), read-only on a worker thread so the main thread keeps answering. Never
 * stopped: the file is the journal itself, nothing of it may be emptied.
 */
export async function readIntegrityOffThread(file: string): Promise<Findings> {
  const report = await runCheckWorker(file, false);
  if (!report) throw new Error('the check stopped before it finished');
  if ('failed' in report) throw new Error(report.failed);
  return report.found;
}

/** Runs the worker on `file`; its report, or undefined when it ended without one. */
function runCheckWorker(
  file: string,
  makeStandalone: boolean,
  signal?: AbortSignal,
  onAbort?: () => void,
): Promise<WorkerReport | undefined> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { betterSqlite3: betterSqlite3Path(), file, makeStandalone },
    });
    let report: WorkerReport | undefined;
    const stop = () => {
      onAbort?.();
      void worker.terminate();
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('message', (message: WorkerReport) => {
      report = message;
    });
    worker.once('error', (error: unknown) => {
      report = { failed: error instanceof Error ? error.message : String(error) };
    });
    worker.once('exit', () => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) reject(signal.reason as Error);
      else resolve(report);
    });
  });
}
