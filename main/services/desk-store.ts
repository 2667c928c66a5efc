// The desk's SQLite database as a start opens it. First the choice the last run left (restore a
// backup, or begin a new journal: journal-file.ts), carried out before anything opens the file;
// then a journal Paydesk had (a marker beside it, a backup, or a profile's secret in the keychain)
// but finds missing or empty stops the app read-only with a sentence
// and the latest backup to offer, instead of SQLite quietly making a new, empty one.

import { localTimeWithOffset } from '../../common/time';
import type { Logger } from '../log';
import type { SecretStore } from '../secrets';
import { listBackups } from '../store/sqlite/backup';
import { openStore } from '../store/sqlite/database';
import {
  absentJournal,
  applyPendingChoice,
  describeAbsentJournal,
  journalFileState,
  recordJournal,
} from '../store/sqlite/journal-file';
import { backupFolderOf } from './backups';

/** What a start carried out of the person's choice (journal-file.ts). */
export interface RestoreReport {
  kind: 'restore' | 'new-journal';
  backup?: string;
  keptAside?: string;
  problem?: string;
}

/**
 * The desk's database at start: first the choice the last run left (a restore, a new journal),
 * then a journal Paydesk had but finds missing or empty stops the app read-only with a
 * sentence and the latest backup, instead of SQLite making a new, empty one.
 */
export async function openDeskStore(
  dataDir: string,
  file: string,
  log: Logger,
  secrets: SecretStore,
) {
  const applied = applyPendingChoice(dataDir, file);
  let restored: RestoreReport | undefined;
  if (applied) {
    restored = {
      kind: applied.choice.kind,
      ...(applied.choice.kind === 'restore' ? { backup: applied.choice.backup } : {}),
      ...(applied.keptAside ? { keptAside: applied.keptAside } : {}),
      ...(applied.problem ? { problem: applied.problem } : {}),
    };
    log.log(applied.problem ? 'error' : 'info', 'Carried out the journal choice', { ...restored });
  }
  const latest = listBackups(backupFolderOf(dataDir))[0];
  const latestBackup = latest ? { name: latest.name, takenAt: latest.takenAt } : undefined;
  // A new journal the person chose is begun, not stopped for: its file was just moved aside.
  const chosenNew = applied?.choice.kind === 'new-journal' && !applied.problem;
  // The keychain is asked only when the file is gone or empty (one call to the OS's store).
  const keychainKnows =
    !chosenNew && journalFileState(file) !== undefined
      ? await (secrets.holdsProfileSecrets?.() ?? Promise.resolve(false))
      : false;
  const absent = chosenNew
    ? undefined
    : absentJournal(file, backupFolderOf(dataDir), keychainKnows);
  if (absent) {
    const when = latest ? localTimeWithOffset(latest.takenAt) : undefined;
    const message = describeAbsentJournal(absent, file, when);
    log.log('error', 'The journal is missing or empty; waiting for a choice', { file, absent });
    return {
      store: openStore(file, { absent: { code: absent, message } }),
      absent,
      latestBackup,
      restored,
    };
  }
  const store = openStore(file);
  if (!store.fault) recordJournal(file);
  return { store, absent, latestBackup, restored };
}
