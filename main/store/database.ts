// The one SQLite database: WAL so reads never wait for the journal's writes, foreign keys on,
// and numbered migrations applied in order at start, each in its own transaction.

import Database from 'better-sqlite3';

import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** Opens (creating if needed) the database at `file` (or ':memory:') and migrates it. */
export function openDatabase(file: string): Db {
  let db: Db;
  try {
    db = new Database(file);
  } catch (error) {
    throw new StoreError(
      `Paydesk could not open its database at ${file}: ${(error as Error).message}. Check that the folder exists and is writable.`,
      { cause: error },
    );
  }
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = FULL'); // a journal entry written before sending must survive a power cut
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db): void {
  const current = schemaVersion(db);
  if (current > MIGRATIONS.length) {
    throw new StoreError(
      `The database was written by a newer Paydesk (schema ${current}, this one knows ${MIGRATIONS.length}). Update Paydesk.`,
    );
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    const sql = MIGRATIONS[version - 1] ?? '';
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
