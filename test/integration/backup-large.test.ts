// Backups of a large journal while the app runs: checking the copy (integrity_check, seconds for
// a large file) must leave the main process's thread free, so the bridge, the refunds' follow-ups
// and their timers go on; quitting during a backup stops it instead of waiting for the check,
// and leaves nothing half-made in the folder; a damaged copy is still refused.
//
// "The check is under way" is seen from outside, as the file shows it: the copy sits under its
// .partial name and has been switched out of WAL (byte 18 of SQLite's header: 1 for a rollback
// journal, 2 for WAL), which the check does first. The journal is written straight into SQLite
// by one INSERT ... SELECT, as test/e2e/journal-million.test.ts does, but smaller.

import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices, type StartOptions } from '../../main/services/app';
import { backupDatabase, checkBackup, listBackups } from '../../main/store/sqlite/backup';
import { openDatabase } from '../../main/store/sqlite/database';
import { fillBulkJournal } from '../support/bulk-journal';
import { until } from '../support/wait';

/** Entries enough that integrity_check of the copy runs well past a timer's tick. */
const ENTRIES = 100_000;

let dataDir: string;
let secrets: MemorySecretStore;
const running: PaydeskServices[] = [];

async function start(extra: Partial<StartOptions> = {}): Promise<PaydeskServices> {
  const services = await PaydeskServices.start({
    dataDir,
    secrets,
    operator: 'ann',
    backups: 'off',
    ...extra,
  });
  running.push(services);
  return services;
}

async function stop(services: PaydeskServices): Promise<void> {
  running.splice(running.indexOf(services), 1);
  await services.close();
}

/** The embedded sandbox's profile, for the journal's entries to belong to. */
async function sandboxProfile(app: PaydeskServices): Promise<string> {
  const sandbox = (await app.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no sandbox profile');
  return sandbox.id;
}

/** The copy in `folder` being checked: under its .partial name and already out of WAL. */
function copyBeingChecked(folder: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const name of names.filter((n) => n.endsWith('.sqlite.partial'))) {
    const header = Buffer.alloc(20);
    let fd: number | undefined;
    try {
      fd = openSync(join(folder, name), 'r');
      if (readSync(fd, header, 0, 20, 0) === 20 && header[18] === 1) return name;
    } catch {
      // Renamed or removed while we looked.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return undefined;
}

/**
 * Runs until `done` settles, every few ms on the main thread's timers: each time the copy is
 * seen being checked, a service call is made and its answer counted.
 */
async function answersWhileChecked(
  app: PaydeskServices,
  folder: string,
  done: Promise<unknown>,
): Promise<number> {
  let settled = false;
  void done.finally(() => (settled = true)).catch(() => undefined);
  let answered = 0;
  while (!settled) {
    await sleep(5);
    if (settled || !copyBeingChecked(folder)) continue;
    if ((await app.profiles.list()).length > 0) answered++;
  }
  return answered;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-backup-large-'));
  secrets = new MemorySecretStore();
});

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`a backup of a journal of ${ENTRIES.toLocaleString('en')} entries`, () => {
  it('leaves the app answering while the copy is checked, and the backup is whole', async () => {
    const app = await start();
    fillBulkJournal(app.db, await sandboxProfile(app), ENTRIES);
    const folder = app.backups.folder;

    const backingUp = app.backups.backupNow();
    const answered = await answersWhileChecked(app, folder, backingUp);
    const made = await backingUp;

    expect(answered).toBeGreaterThan(0);
    expect(readdirSync(folder)).toEqual([made.name]);
    const backup = new Database(made.path, { readonly: true, fileMustExist: true });
    try {
      expect(backup.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(backup.prepare('SELECT count(*) AS n FROM journal').get()).toEqual({ n: ENTRIES });
    } finally {
      backup.close();
    }
  }, 120_000);

  it('quitting while the copy is checked stops the backup: nothing left in the folder, and the next start backs up again', async () => {
    const app = await start();
    fillBulkJournal(app.db, await sandboxProfile(app), ENTRIES);
    const folder = app.backups.folder;

    const backingUp = app.backups.backupNow();
    await until(() => copyBeingChecked(folder) !== undefined, 60_000, 'the copy being checked');
    await stop(app);

    // The check was not waited for: no backup was named, and its copy is gone.
    await expect(backingUp).rejects.toThrow(/Paydesk is closing/);
    expect(readdirSync(folder)).toEqual([]);
    expect(app.backups.status().lastError).toBeUndefined();

    const again = await start({ backups: undefined, firstBackupAfterMs: 50 });
    await until(() => listBackups(folder).length === 1, 60_000, 'the next start’s backup');
    expect(readdirSync(folder)).toEqual([listBackups(folder)[0]!.name]);
    await stop(again);
  }, 120_000);

  it('quitting while the file is being copied stops the copy: nothing left in the folder', async () => {
    const app = await start();
    fillBulkJournal(app.db, await sandboxProfile(app), ENTRIES);
    const folder = app.backups.folder;

    const backingUp = app.backups.backupNow();
    await until(
      // The folder is made once the backup begins (after its sweep of leftovers).
      () => existsSync(folder) && readdirSync(folder).some((n) => n.endsWith('.partial')),
      60_000,
      'the copy begun',
    );
    await stop(app);

    await expect(backingUp).rejects.toThrow(/Paydesk is closing/);
    expect(readdirSync(folder)).toEqual([]);
  }, 120_000);
});

describe('a damaged journal', () => {
  it('is refused, at a backup and at a restore: nothing gets a backup’s name', async () => {
    const file = join(dataDir, 'damaged.sqlite');
    const db = openDatabase(file);
    db.exec(
      "INSERT INTO profiles (id, name, environment, base_url, endpoint_id, login, created_at, updated_at) VALUES ('p', 'Shop', 'sandbox', 'http://127.0.0.1:1', '1', 'shop', 't', 't')",
    );
    fillBulkJournal(db, 'p', 2_000);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal'")
      .get() as { rootpage: number };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    // An index of the journal gets an invalid page type and garbage cell pointers: the file
    // opens and copies, and only integrity_check finds the damage.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (rootpage - 1) * pageSize);
    closeSync(fd);

    const source = new Database(file, { fileMustExist: true });
    const folder = join(dataDir, 'backups');
    try {
      await expect(backupDatabase(source, folder)).rejects.toThrow(
        /did not pass its integrity check/,
      );
    } finally {
      source.close();
    }
    expect(readdirSync(folder)).toEqual([]);
    expect(checkBackup(file)).toBeDefined();
  });
});
