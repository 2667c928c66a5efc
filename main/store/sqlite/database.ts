// The one SQLite database: WAL so reads never wait for the journal's writes, foreign keys on,
// a busy timeout so two processes take turns instead of failing, and numbered migrations
// applied in order at start. openStore() is what the app uses: it checks the file first and,
// when it is damaged, read-only or in a folder Paydesk cannot write, opens the app read-only
// on a private copy (or an empty database) and never writes to, moves or deletes the file.

import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { describeStoreProblem, StoreError, toStoreError, type StoreErrorCode } from '../errors';
import { MIGRATIONS } from './migrations';
import { keepTempInMemory } from './temp-store';
import { defaultErrorMapper, typedDb } from './typed-db';

export { StoreError } from '../errors';

export type Db = Database.Database;

/** How long a write waits for another process's lock before it is a BUSY StoreError. */
export const BUSY_TIMEOUT_MS = 5_000;

export interface OpenOptions {
  busyTimeoutMs?: number;
}

/** Turns whatever opening threw into a StoreError that names the file. */
function openError(error: unknown, file: string): StoreError {
  const mapped = toStoreError(error, file);
  if (mapped) return mapped;
  // better-sqlite3 throws a TypeError when the folder does not exist.
  const detail = error instanceof Error ? error.message : String(error);
  return new StoreError('UNWRITABLE', describeStoreProblem('UNWRITABLE', file, detail), {
    cause: error,
    file,
  });
}

/**
 * Opens (creating if needed) the database at `file` (or ':memory:'), migrates it and proves it
 * can be written. Every failure, here and in every later use of the handle, is a StoreError
 * with a code and a sentence (see typed-db.ts).
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  let db: Db | undefined;
  try {
    // The timeout is the busy handler; set at open so even the first pragma waits its turn.
    db = new Database(file, { timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = FULL'); // a journal entry written before sending must survive a power cut
    // Migrating wrote to the file: that proves it can be written.
    if (!migrate(db)) proveWritable(db);
    // After the migrations, whose CREATE INDEX sorts a whole table (temp-store.ts).
    keepTempInMemory(db);
    return typedDb(db, defaultErrorMapper(file));
  } catch (error) {
    db?.close();
    throw openError(error, file);
  }
}

/**
 * Another, read-only connection to a database already open (a CSV export reads its snapshot on
 * one): no migration, no write; every failure a StoreError naming the file, as openDatabase's.
 */
export function openReadOnly(file: string, options: OpenOptions = {}): Db {
  try {
    const db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS,
    });
    return typedDb(db, defaultErrorMapper(file));
  } catch (error) {
    throw openError(error, file);
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function newerSchema(db: Db, current: number): StoreError {
  return new StoreError(
    'NEWER_SCHEMA',
    `The database was written by a newer Paydesk (schema ${current}, this one knows ${MIGRATIONS.length}). Update Paydesk.`,
    { file: db.name },
  );
}

/**
 * Applies the missing migrations in one IMMEDIATE transaction that reads the version again under
 * the write lock: two processes starting at once on a new file take turns, and the second finds
 * the work done instead of creating the tables twice. One transaction, not one per migration: a
 * new file is made with one commit (one sync to disk under synchronous = FULL, not nine), and a
 * crash part-way leaves the file at its old version, whole, for the next start to migrate.
 * Returns whether it wrote.
 */
export function migrate(db: Db): boolean {
  if (schemaVersion(db) > MIGRATIONS.length) throw newerSchema(db, schemaVersion(db));
  return db
    .transaction(() => {
      const current = schemaVersion(db);
      if (current > MIGRATIONS.length) throw newerSchema(db, current);
      for (let version = current; version < MIGRATIONS.length; version++) {
        db.exec(MIGRATIONS[version] ?? '');
      }
      if (current === MIGRATIONS.length) return false;
      db.pragma(`user_version = ${MIGRATIONS.length}`);
      return true;
    })
    .immediate();
}

/**
 * A read-only file opens without complaint and fails only at the first write. Rewriting the
 * schema version with its own value is a real write that changes nothing, so the problem shows
 * at start, not in the middle of a refund.
 */
function proveWritable(db: Db): void {
  db.transaction(() => db.pragma(`user_version = ${schemaVersion(db)}`)).immediate();
}

/**
 * PRAGMA quick_check over a read-only connection: a damaged file is found before anything
 * writes to it (a read-write connection could checkpoint its WAL into it on close).
 */
function checkIntegrity(file: string, options: OpenOptions): void {
  const db = new Database(file, {
    readonly: true,
    fileMustExist: true,
    timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS,
  });
  try {
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
    if (problems.length > 0) {
      const detail = `the integrity check found: ${problems.slice(0, 3).join('; ')}`;
      throw new StoreError('DAMAGED', describeStoreProblem('DAMAGED', file, detail), {
        sqliteCode: 'SQLITE_CORRUPT',
        file,
      });
    }
  } finally {
    db.close();
  }
}

/** Why the app is read-only: shown in the banner and in every refused change. */
export interface StoreFault {
  code: StoreErrorCode;
  /** The database file the problem is about. */
  file: string;
  /** What is wrong and what to do, for the banner. */
  message: string;
}

export interface Store {
  db: Db;
  file: string;
  /** Set when the app runs read-only; undefined when the database is healthy. */
  fault: StoreFault | undefined;
  close(): void;
}

const faults = new WeakMap<Db, StoreFault>();

/** The fault that made this database read-only, if any. */
export function storeFaultOf(db: Db): StoreFault | undefined {
  return faults.get(db);
}

/**
 * Throws a typed StoreError when the app runs read-only. Called before anything that writes,
 * and above all before a money-moving request: it could not be journaled before it is sent.
 */
export function requireWritable(db: Db, action: string): void {
  const fault = faults.get(db);
  if (fault) throw readOnlyError(fault, action);
}

function readOnlyError(fault: StoreFault, action: string): StoreError {
  return new StoreError(
    fault.code,
    `Paydesk is open read-only and cannot ${action}: nothing was sent or changed, since it could not be written to the journal first. ${fault.message}`,
    { file: fault.file },
  );
}

/**
 * Opens the app's database. A healthy file is opened for reading and writing. A damaged,
 * read-only or unwritable one is left exactly as it is: the app runs on a private copy of it
 * (so profiles and the journal can still be read) or, when even that cannot be read, on an
 * empty database; both refuse every write, and `fault` says what is wrong.
 */
export function openStore(file: string, options: StoreOptions = {}): Store {
  // A journal Paydesk knows it had, gone or empty: SQLite would open it as a new, empty one.
  if (options.absent) {
    const { code, message } = options.absent;
    return readOnlyStore(file, { code, file, message }, openEmpty());
  }
  try {
    if (existsSync(file)) checkIntegrity(file, options);
    const db = openDatabase(file, options);
    return { db, file, fault: undefined, close: () => db.close() };
  } catch (error) {
    const problem = openError(error, file);
    const fault: StoreFault = { code: problem.code, file, message: problem.message };
    return readOnlyStore(file, fault, openCopy(file) ?? openEmpty());
  }
}

export interface StoreOptions extends OpenOptions {
  /** Set when the journal is missing or empty although Paydesk had one (journal-file.ts). */
  absent?: { code: 'MISSING' | 'EMPTY'; message: string };
}

/** The app read-only on `fallback` (a private copy or an empty database), `fault` saying why. */
function readOnlyStore(
  file: string,
  fault: StoreFault,
  fallback: { db: Db; close(): void },
): Store {
  // The backstop: any write that gets past requireWritable() fails with SQLITE_READONLY,
  // which the handle reports as the fault itself; other errors name the original file.
  fallback.db.pragma('query_only = ON');
  const toStore = defaultErrorMapper(file);
  const db = typedDb(fallback.db, (raw) => {
    const mapped = toStore(raw);
    return mapped instanceof StoreError && mapped.code === 'READ_ONLY'
      ? readOnlyError(fault, 'change anything')
      : mapped;
  });
  faults.set(db, fault);
  return { db, file, fault, close: () => fallback.close() };
}

/** A migrated copy of the file (and its WAL) in a private temp folder, or undefined. */
function openCopy(file: string): { db: Db; close(): void } | undefined {
  if (!existsSync(file)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-readonly-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let db: Db | undefined;
  try {
    const copy = join(dir, 'paydesk.sqlite');
    copyFileSync(file, copy);
    chmodSync(copy, 0o600); // the copy keeps a read-only file's mode otherwise
    if (existsSync(`${file}-wal`)) {
      copyFileSync(`${file}-wal`, `${copy}-wal`);
      chmodSync(`${copy}-wal`, 0o600);
    }
    const opened = new Database(copy);
    db = opened;
    opened.pragma('foreign_keys = ON');
    if (schemaVersion(opened) < MIGRATIONS.length) migrate(opened);
    opened.prepare('SELECT COUNT(*) FROM profiles').get(); // the least a lookup needs
    return {
      db: opened,
      close: () => {
        opened.close();
        removeDir();
      },
    };
  } catch {
    db?.close();
    removeDir();
    return undefined;
  }
}

function openEmpty(): { db: Db; close(): void } {
  const db = new Database(':memory:');
  migrate(db);
  return { db, close: () => db.close() };
}
