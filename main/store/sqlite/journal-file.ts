// What Paydesk knows about its database file before it opens it. SQLite opens a missing file
// and a zero-length one as a new, empty database, which would silently start an empty journal
// where a company's refunds were: so once a journal has opened healthy, a marker beside it
// (paydesk-journal.json) remembers that there was one, and a start that then finds the file
// missing or empty stops and says so instead. Backups in the backup folder count as history
// too. Nothing here creates, writes or deletes the database; a person's choice (restore a backup,
// or begin a new journal) is left as restore.json and carried out at the next start, before the
// database is opened, so the app's writes are stopped while the file is changed; the file it
// replaces is moved aside, never deleted.

import {
  copyFileSync,
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

import Database from 'better-sqlite3';

import { checkBackup, listBackups } from './backup';

const MARKER = 'paydesk-journal.json';
const CHOICE = 'restore.json';

export type AbsentJournal = 'MISSING' | 'EMPTY';

/** The choice a person made about the journal, carried out at the next start. */
export type JournalChoice = { kind: 'restore'; backup: string } | { kind: 'new-journal' };

function markerFile(file: string): string {
  return join(dirname(file), MARKER);
}

/** Remembers, beside the database, that a journal opened healthy here. */
export function recordJournal(file: string, now = new Date()): void {
  const marker = markerFile(file);
  let firstOpened = now.toISOString();
  try {
    const known = JSON.parse(readFileSync(marker, 'utf8')) as { firstOpened?: unknown };
    if (typeof known.firstOpened === 'string') firstOpened = known.firstOpened;
  } catch {
    // No marker yet: this is the first healthy open.
  }
  const record = { journal: basename(file), firstOpened, lastOpened: now.toISOString() };
  try {
    writeFileSync(marker, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
  } catch {
    // A folder Paydesk cannot write is already a fault of the store.
  }
}

/** 'MISSING' or 'EMPTY' when the database at `file` is gone or has no bytes; else undefined. */
export function journalFileState(file: string): AbsentJournal | undefined {
  return !existsSync(file) ? 'MISSING' : statSync(file).size === 0 ? 'EMPTY' : undefined;
}

/**
 * 'MISSING' or 'EMPTY' when the database at `file` is gone or has no bytes although Paydesk
 * knows there was a journal (the marker, any backup in `backupFolder`, or `keychainKnows`: the
 * keychain holds a profile's secret); otherwise undefined.
 */
export function absentJournal(
  file: string,
  backupFolder: string,
  keychainKnows = false,
): AbsentJournal | undefined {
  const state = journalFileState(file);
  if (!state) return undefined;
  const known =
    keychainKnows || existsSync(markerFile(file)) || listBackups(backupFolder).length > 0;
  return known ? state : undefined;
}

/** The sentence for the stop: what is wrong, what is offered, and that nothing was changed. */
export function describeAbsentJournal(
  state: AbsentJournal,
  file: string,
  latestBackup: string | undefined,
): string {
  const what =
    state === 'MISSING'
      ? `Paydesk's journal is missing: ${file} is not there, although Paydesk had a journal in this folder.`
      : `Paydesk's journal is empty: ${file} has no bytes, although Paydesk had a journal in this folder.`;
  const offer = latestBackup
    ? ` The latest backup was taken ${latestBackup}: restore it, or begin a new, empty journal.`
    : ' No backup was found: put the file back if you have it elsewhere, or begin a new, empty journal.';
  return `${what}${offer} Nothing has been changed or sent until you choose.`;
}

export function saveChoice(dataDir: string, choice: JournalChoice): void {
  writeFileSync(join(dataDir, CHOICE), JSON.stringify(choice) + '\n', { mode: 0o600 });
}

export function pendingChoice(dataDir: string): JournalChoice | undefined {
  try {
    const choice = JSON.parse(readFileSync(join(dataDir, CHOICE), 'utf8')) as JournalChoice;
    if (choice.kind === 'restore' && typeof choice.backup === 'string') return choice;
    if (choice.kind === 'new-journal') return choice;
  } catch {
    // No choice waiting.
  }
  return undefined;
}

/** Moves `file` and its -wal and -shm aside, next to it, with `label` and a time in the name. */
function moveAside(file: string, label: string, now: Date): string | undefined {
  if (!existsSync(file)) return undefined;
  const aside = `${file}.${label}-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  renameSync(file, aside);
  return aside;
}

/**
 * The restored copy's leases name the process that was sending each entry when the backup was
 * taken; that process has ended (the app stopped before the restore), so they are released and
 * the start's reconcile asks the gateway about every entry in flight, as after any crash.
 */
function releaseLeases(copy: string): void {
  const db = new Database(copy, { fileMustExist: true });
  try {
    db.prepare(
      'UPDATE journal SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL',
    ).run();
  } finally {
    db.close();
  }
}

export interface ChoiceResult {
  choice: JournalChoice;
  /** Where the file that was replaced now is (undefined when there was none). */
  keptAside?: string;
  /** Set when the choice could not be carried out; the file was left as it was. */
  problem?: string;
}

/**
 * Carries out the choice left by the last run, before the database is opened: a restore puts a
 * checked backup in place of the file (which is kept aside); a new journal moves the empty file
 * aside so SQLite makes a new one. The choice is removed either way, so it runs once.
 */
export function applyPendingChoice(
  dataDir: string,
  file: string,
  now = new Date(),
): ChoiceResult | undefined {
  const choice = pendingChoice(dataDir);
  if (!choice) return undefined;
  const choiceFile = join(dataDir, CHOICE);
  try {
    if (choice.kind === 'new-journal') {
      const keptAside = moveAside(file, 'empty', now);
      return { choice, ...(keptAside ? { keptAside } : {}) };
    }
    const problem = checkBackup(choice.backup);
    if (problem) return { choice, problem: `${choice.backup} cannot be restored: ${problem}` };
    const keptAside = moveAside(file, 'before-restore', now);
    const incoming = `${file}.restoring`;
    copyFileSync(choice.backup, incoming);
    releaseLeases(incoming);
    renameSync(incoming, file);
    return { choice, ...(keptAside ? { keptAside } : {}) };
  } catch (error) {
    return { choice, problem: error instanceof Error ? error.message : String(error) };
  } finally {
    try {
      renameSync(choiceFile, `${choiceFile}.done`);
    } catch {
      // Already gone.
    }
  }
}
