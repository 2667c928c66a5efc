// Every failure of the database as a typed StoreError: a code the screens and services can act
// on, whether trying again may help, and a sentence for the person at the desk that says what
// is wrong and what to do. A raw SqliteError ("database is locked", "file is not a database")
// never reaches a screen.

import { dirname } from 'node:path';

export type StoreErrorCode =
  /** The file is not a database, or its pages are damaged. */
  | 'DAMAGED'
  /** The file cannot be written (read-only file or file system). */
  | 'READ_ONLY'
  /** The folder cannot be written, or the file cannot be opened at all. */
  | 'UNWRITABLE'
  /** The disk is full. */
  | 'FULL'
  /** Another process held the database longer than the busy timeout. */
  | 'BUSY'
  /** A newer Paydesk wrote this database. */
  | 'NEWER_SCHEMA'
  /** The operating system reported a read or write error. */
  | 'IO'
  /** A row broke a rule of the schema. */
  | 'CONSTRAINT'
  /** The team journal's database server cannot be reached, or went away mid-work (team mode). */
  | 'UNREACHABLE'
  /** The team journal's database refused the person's login or role (team mode). */
  | 'NOT_ALLOWED'
  /** The journal Paydesk had is gone (journal-file.ts): the app stops until the person chooses. */
  | 'MISSING'
  /** The journal Paydesk had is a zero-length file: the app stops until the person chooses. */
  | 'EMPTY'
  | 'FAILED';

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** True when the same step may succeed if simply tried again in a moment. */
  readonly retryable: boolean;
  /** SQLite's own code (SQLITE_BUSY...), for the log. */
  readonly sqliteCode: string | undefined;
  readonly file: string | undefined;

  constructor(
    code: StoreErrorCode,
    message: string,
    options: { cause?: unknown; sqliteCode?: string; file?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreError';
    this.code = code;
    this.retryable = code === 'BUSY' || code === 'UNREACHABLE';
    this.sqliteCode = options.sqliteCode;
    this.file = options.file;
  }
}

/** better-sqlite3's SqliteError, recognised by shape so this module needs no native import. */
export function isSqliteError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

export function codeOfSqlite(sqliteCode: string): StoreErrorCode {
  if (sqliteCode === 'SQLITE_NOTADB' || sqliteCode.startsWith('SQLITE_CORRUPT')) return 'DAMAGED';
  if (sqliteCode === 'SQLITE_READONLY_DIRECTORY') return 'UNWRITABLE';
  if (sqliteCode.startsWith('SQLITE_READONLY')) return 'READ_ONLY';
  if (
    sqliteCode.startsWith('SQLITE_CANTOPEN') ||
    sqliteCode === 'SQLITE_PERM' ||
    sqliteCode.startsWith('SQLITE_AUTH')
  )
    return 'UNWRITABLE';
  if (sqliteCode === 'SQLITE_FULL') return 'FULL';
  if (sqliteCode.startsWith('SQLITE_BUSY') || sqliteCode.startsWith('SQLITE_LOCKED')) return 'BUSY';
  if (sqliteCode.startsWith('SQLITE_IOERR')) return 'IO';
  if (sqliteCode.startsWith('SQLITE_CONSTRAINT')) return 'CONSTRAINT';
  return 'FAILED';
}

/** Where the fix is: quit, move the damaged file aside (never delete it), restore a backup. */
export function restoreAdvice(file: string): string {
  const name = file || 'paydesk.sqlite (in Paydesk’s data folder)';
  return (
    `To repair it: quit Paydesk, move ${name} and any -wal and -shm files next to it ` +
    'to another folder (keep them: support may recover entries from them), copy your latest ' +
    'backup of paydesk.sqlite to that place, and start Paydesk again. With no backup, starting ' +
    'without the file begins a new, empty journal.'
  );
}

/** The sentence for each code: what is wrong with the database at `file`, and what to do. */
export function describeStoreProblem(code: StoreErrorCode, file: string, detail: string): string {
  const known = file !== '' && file !== ':memory:';
  const where = known ? `Paydesk’s database at ${file}` : 'Paydesk’s database';
  switch (code) {
    case 'DAMAGED':
      return `${where} is damaged (${detail}). ${restoreAdvice(file)}`;
    case 'READ_ONLY':
      return `${where} cannot be written: the file or its disk is read-only. Give your user account write permission to the file (or move it to a writable disk), then start Paydesk again.`;
    case 'UNWRITABLE':
      return `${where} cannot be written or opened: ${known ? `the folder ${dirname(file)}` : 'its folder'} does not let Paydesk create or change files (${detail}). Give your user account write permission to that folder, then start Paydesk again.`;
    case 'FULL':
      return `The disk holding ${known ? file : 'Paydesk’s database'} is full, so nothing more can be written to the journal. Free some space on it; the entries written so far are safe.`;
    case 'BUSY':
      return `${where} stayed locked by another Paydesk window or tool for too long; nothing was changed. Try again in a moment; if it persists, close the other program.`;
    case 'NEWER_SCHEMA':
      return `${where} was written by a newer Paydesk (${detail}). Update Paydesk to use it.`;
    case 'IO':
      return `The computer reported a disk error while reading or writing ${where} (${detail}). Check the disk, then start Paydesk again.`;
    case 'CONSTRAINT':
      return `The database refused a change that breaks one of its rules (${detail}); nothing was changed. Send the log to support.`;
    case 'UNREACHABLE':
      return `Paydesk cannot reach the team journal's database (${detail}). Nothing that moves money is sent until it is back, because every such request is written to the journal first; looking orders up still works. Check the network, or ask your database administrator.`;
    case 'NOT_ALLOWED':
      return `The team journal's database refused this (${detail}); nothing was changed. Ask your database administrator if your login should be allowed to do it.`;
    case 'MISSING':
    case 'EMPTY':
      return detail;
    case 'FAILED':
      return `${where} reported a problem (${detail}). Send the log to support.`;
  }
}

/**
 * The StoreError for anything a database call threw: a StoreError as it is, a SqliteError
 * mapped by its code, anything else undefined (it is not the database's).
 */
export function toStoreError(error: unknown, file = ''): StoreError | undefined {
  if (error instanceof StoreError) return error;
  if (!isSqliteError(error)) return undefined;
  const code = codeOfSqlite(error.code);
  return new StoreError(code, describeStoreProblem(code, file, error.message), {
    cause: error,
    sqliteCode: error.code,
    ...(file ? { file } : {}),
  });
}
