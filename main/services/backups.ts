// Settings -> Backups: the desk's database backed up by itself at start and every few hours of
// use, kept with a retention (7 daily, 4 weekly), in a folder the person can change (saved in
// backups.json of the data folder); "Back up now"; and restoring one. A restore is never done
// under the running app: it is left as a choice (journal-file.ts) and carried out at the next
// start, after the services have stopped and before the database opens, with the current file
// kept aside; that start then reconciles the restored journal's entries in flight with the
// gateway, as every start does. A database the app cannot trust (read-only, damaged, missing)
// is never backed up: its copy would push real backups out of the retention. Quitting does not
// wait for a backup under way: it is stopped, its unfinished copy removed, and the next start
// backs up again as usual. What a backup cut short by a power cut or a kill left in the folder
// (its .partial copy) is swept at start and before each backup (backup.ts, sweepLeftovers).
// On a team, choosing the folder, restoring and beginning a new journal are an admin's
// (common/backup-roles.ts): refused here, whatever the screen showed.

import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { backupsAllowance, type Allowance } from '../../common/backup-roles';
import type { SessionData } from '../../common/team-contract';
import type { Logger } from '../log';
import {
  backupDatabase,
  listBackups,
  pruneBackups,
  sweepLeftovers,
  type BackupFile,
} from '../store/sqlite/backup';
import { StoreError } from '../store/errors';
import type { Db } from '../store/sqlite/database';
import { saveChoice, type AbsentJournal } from '../store/sqlite/journal-file';
import { checkBackupFolder } from './backup-folder';
import { ServiceError } from './errors';

/** Hours of use between automatic backups. */
export const BACKUP_EVERY_HOURS = 4;
/** The start's backup waits this long, so it does not compete with the first screen. */
export const FIRST_BACKUP_AFTER_MS = 15_000;

export interface BackupSettingsFile {
  folder?: string;
}

export function backupSettingsFile(dataDir: string): string {
  return join(dataDir, 'backups.json');
}

export function defaultBackupFolder(dataDir: string): string {
  return join(dataDir, 'backups');
}

/** The backup folder chosen in Settings, or the default one in the data folder. */
export function backupFolderOf(dataDir: string): string {
  try {
    const saved = JSON.parse(
      readFileSync(backupSettingsFile(dataDir), 'utf8'),
    ) as BackupSettingsFile;
    if (typeof saved.folder === 'string' && isAbsolute(saved.folder)) return saved.folder;
  } catch {
    // No settings saved: the default.
  }
  return defaultBackupFolder(dataDir);
}

export interface BackupStatus {
  folder: string;
  defaultFolder: string;
  everyHours: number;
  retention: string;
  /** Newest first. */
  backups: BackupFile[];
  /** Why automatic backups do not run now (a database the app cannot trust); else undefined. */
  paused?: string;
  /** On a team journal: whose backups the journal's are, and what to back up. */
  team?: string;
  lastError?: string;
}

export interface BackupServiceOptions {
  db: Db;
  dataDir: string;
  /** Why the database cannot be backed up (the store's fault), or undefined when it can. */
  fault?: { code: string; message: string };
  /** The team journal's server and database, on a desk that uses one. */
  teamWhere?: string;
  log: Logger;
  /** Who is at the desk and in which team groups, asked afresh (the journal's session). */
  session?: () => Promise<SessionData>;
  everyMs?: number;
  firstAfterMs?: number;
}

export class BackupService {
  private timers: NodeJS.Timeout[] = [];
  private closed = false;
  private running: Promise<BackupFile> | undefined;
  /** Aborted by close(): a backup under way stops instead of being waited for. */
  private readonly stopping = new AbortController();
  private lastError: string | undefined;

  constructor(private readonly options: BackupServiceOptions) {}

  get folder(): string {
    return backupFolderOf(this.options.dataDir);
  }

  status(): BackupStatus {
    const { fault, teamWhere, dataDir } = this.options;
    return {
      folder: this.folder,
      defaultFolder: defaultBackupFolder(dataDir),
      everyHours: BACKUP_EVERY_HOURS,
      retention: 'the newest backup of each of the last 7 days and of each of the last 4 weeks',
      backups: listBackups(this.folder),
      ...(fault
        ? { paused: `Backups are paused while the database cannot be trusted. ${fault.message}` }
        : {}),
      ...(teamWhere ? { team: teamBackupAdvice(teamWhere) } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /**
   * Removes what backups cut short left in the folder (a crash, a power cut); logged, never
   * thrown: a folder that cannot be read now is the next backup's to report.
   */
  async sweepLeftovers(): Promise<string[]> {
    const folder = this.folder;
    const removed = await sweepLeftovers(folder).catch(() => []);
    if (removed.length > 0)
      this.options.log.log('info', 'Removed what interrupted backups left', { folder, removed });
    return removed;
  }

  /** Backs up shortly after start, then every few hours while the app runs. */
  startSchedule(): void {
    if (this.options.fault || this.timers.length > 0 || this.closed) return;
    const automatic = () => {
      if (this.closed) return;
      this.backupNow().catch(() => undefined); // logged and shown by backupNow
    };
    const first = setTimeout(automatic, this.options.firstAfterMs ?? FIRST_BACKUP_AFTER_MS);
    const every = setInterval(automatic, this.options.everyMs ?? BACKUP_EVERY_HOURS * 3_600_000);
    this.timers = [first, every];
    for (const timer of this.timers) timer.unref();
  }

  /** One backup now (or the one already under way), then the retention. */
  backupNow(): Promise<BackupFile> {
    if (this.closed) return Promise.reject(new ServiceError('NOT_ALLOWED', 'Paydesk is closing.'));
    if (this.options.fault) {
      return Promise.reject(
        new ServiceError('NOT_ALLOWED', this.status().paused ?? 'Backups are paused.'),
      );
    }
    this.running ??= this.backup().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async backup(): Promise<BackupFile> {
    const folder = this.folder;
    await this.sweepLeftovers();
    try {
      const made = await backupDatabase(this.options.db, folder, {
        signal: this.stopping.signal,
        // Only the default folder is made; a chosen one that is gone is a share not connected.
        makeFolder: folder === defaultBackupFolder(this.options.dataDir),
      });
      const removed = pruneBackups(folder);
      this.lastError = undefined;
      this.options.log.log('info', 'Backed up the database', {
        backup: made.path,
        bytes: made.bytes,
        removedByRetention: removed.length,
      });
      return made;
    } catch (error) {
      if (this.stopping.signal.aborted) {
        this.options.log.log('info', 'The backup under way was stopped: Paydesk is closing', {
          folder,
        });
        throw error;
      }
      const detail = error instanceof Error ? error.message : String(error);
      this.lastError = `The last backup into ${folder} failed: ${detail}`;
      this.options.log.log('error', 'The database could not be backed up', { folder, error });
      throw new StoreError('FAILED', this.lastError, { cause: error, file: folder });
    }
  }

  /** Refuses, with the rule's sentence, what the person's team role does not allow. */
  private async requireAllowed(): Promise<void> {
    const session = this.options.session;
    if (!session) return;
    let allowance: Allowance;
    try {
      allowance = backupsAllowance(await session());
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      allowance = { allowed: false, reason: `Paydesk could not read who you are (${detail}).` };
    }
    if (!allowance.allowed) throw new ServiceError('NOT_ALLOWED', allowance.reason);
  }

  /**
   * Saves the backup folder: a whole path to a folder that exists and can be written (the
   * default one is made when missing); an admin's on a team.
   */
  async setFolder(folder: string): Promise<BackupStatus> {
    await this.requireAllowed();
    return this.saveFolder(folder);
  }

  /**
   * The folder chosen with the system's folder picker (`pick`, given the folder in use), saved
   * as setFolder saves a typed one; `chosen: false` when the person closed the picker.
   */
  async chooseFolder(
    pick: (current: string) => Promise<string | undefined>,
  ): Promise<{ chosen: boolean; status: BackupStatus }> {
    await this.requireAllowed(); // before the picker opens: no choosing what would be refused
    const picked = await pick(this.folder);
    if (picked === undefined) return { chosen: false, status: this.status() };
    return { chosen: true, status: this.saveFolder(picked) };
  }

  private saveFolder(folder: string): BackupStatus {
    checkBackupFolder(folder, folder === defaultBackupFolder(this.options.dataDir));
    writeFileSync(backupSettingsFile(this.options.dataDir), JSON.stringify({ folder }) + '\n', {
      mode: 0o600,
    });
    this.options.log.log('info', 'Backup folder changed', { folder });
    return this.status();
  }

  /**
   * Leaves the choice to restore `name` (a backup in the folder) for the next start, which
   * carries it out before the database opens. The caller then restarts the app.
   */
  async chooseRestore(name: string): Promise<BackupFile> {
    await this.requireAllowed();
    const backup = listBackups(this.folder).find((b) => b.name === name);
    if (!backup)
      throw new ServiceError('NOT_FOUND', `There is no backup named ${name} in ${this.folder}.`);
    saveChoice(this.options.dataDir, { kind: 'restore', backup: backup.path });
    this.options.log.log('info', 'Restore chosen; carried out at the restart', {
      backup: backup.path,
    });
    return backup;
  }

  /** The choice to begin a new, empty journal: only where the journal is missing or empty. */
  async chooseNewJournal(absent: AbsentJournal | undefined): Promise<void> {
    await this.requireAllowed();
    if (!absent)
      throw new ServiceError(
        'NOT_ALLOWED',
        'A new journal is begun only where the journal is missing or empty.',
      );
    saveChoice(this.options.dataDir, { kind: 'new-journal' });
    this.options.log.log('info', 'A new, empty journal chosen; begun at the restart');
  }

  /**
   * Stops the schedule and a backup under way, and waits only for it to let go of its files and
   * of the database's connection (the database closes after this): not for a large file's check.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
    this.stopping.abort(
      new ServiceError('NOT_ALLOWED', 'Paydesk is closing: the backup under way was stopped.'),
    );
    await this.running?.catch(() => undefined);
  }
}

export function teamBackupAdvice(where: string): string {
  return (
    `The journal is the team's PostgreSQL database (${where}): its backups are your database ` +
    "administrator's. They should back up that database (pg_dump, or the server's own backups " +
    'with point-in-time recovery) and its logins and groups (pg_dumpall --roles-only). The ' +
    "backups here hold this desk's own file: its profiles, settings and its own local journal."
  );
}
