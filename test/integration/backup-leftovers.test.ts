// A backup cut short by a power cut or a killed Paydesk leaves its unfinished copy (the .partial)
// in the backup folder, which may be the person's own disk or share. The next start removes such
// leftovers, and so does the next backup; only files named exactly as a backup's copy is, and
// unchanged for an hour (a share may hold another desk's backup under way). Every other file in
// the folder stays, however like ours its name is.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices, type StartOptions } from '../../main/services/app';
import { defaultBackupFolder } from '../../main/services/backups';
import { fillBulkJournal } from '../support/bulk-journal';
import { until } from '../support/wait';

let dataDir: string;
let secrets: MemorySecretStore;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-backup-leftovers-'));
  secrets = new MemorySecretStore();
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function start(extra: Partial<StartOptions> = {}): Promise<PaydeskServices> {
  return PaydeskServices.start({ dataDir, secrets, operator: 'ann', backups: 'off', ...extra });
}

/** A journal large enough that copying it a page at a time takes a while. */
async function deskWithJournal(): Promise<string> {
  const app = await start();
  const sandbox = (await app.profiles.list()).find((p) => p.embedded);
  await app.close();
  const file = join(dataDir, 'paydesk.sqlite');
  const db = new Database(file);
  fillBulkJournal(db, sandbox!.id, 20_000);
  db.close();
  return file;
}

/** Starts a backup in a process of its own and kills it once its copy is in the folder. */
async function backupKilledMidway(file: string, folder: string): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '..', 'support', 'fixtures', 'backup-then-die.ts'),
      file,
      folder,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const partials = () => {
    try {
      return readdirSync(folder).filter((n) => n.includes('.partial'));
    } catch {
      return [];
    }
  };
  await until(() => partials().length > 0 || output.includes('backed up'), 30_000, 'the copy');
  child.kill('SIGKILL');
  await exited;
  expect(output).not.toContain('backed up');
  return partials();
}

const HOURS_AGO = (hours: number) => new Date(Date.now() - hours * 3_600_000);

it('a backup killed midway leaves its .partial; the next start removes it and nothing else', async () => {
  const file = await deskWithJournal();
  const folder = defaultBackupFolder(dataDir);
  const left = await backupKilledMidway(file, folder);
  expect(left.some((n) => /^paydesk-.*Z\.sqlite\.partial$/.test(n))).toBe(true);
  // The power cut was a while ago.
  for (const name of left) utimesSync(join(folder, name), HOURS_AGO(2), HOURS_AGO(2));
  // The person's own files, named like ours but not ours, as old.
  const theirs = [
    'paydesk-notes.sqlite.partial',
    'copy of paydesk-2026-11-20T10-00-00-000Z.sqlite.partial',
    'paydesk-2026-11-20T10-00-00-000Z.sqlite.partial.txt',
    'paydesk-2026-11-20T10-00-00-000Z.sqlite.partial-old',
    'paydesk-2026-11-20T10-00-00-000Z.sqlite',
    'notes.txt',
  ];
  for (const name of theirs) {
    writeFileSync(join(folder, name), 'mine');
    utimesSync(join(folder, name), HOURS_AGO(2), HOURS_AGO(2));
  }
  // Another desk's backup under way in the same share: written to a moment ago.
  const underWay = 'paydesk-2026-11-27T17-00-00-000Z.sqlite.partial';
  writeFileSync(join(folder, underWay), 'being copied');

  const app = await start();
  try {
    await until(
      () => !readdirSync(folder).some((n) => left.includes(n)),
      10_000,
      'the leftovers to be removed',
    );
    expect(readdirSync(folder).sort()).toEqual([...theirs, underWay].sort());
  } finally {
    await app.close();
  }
}, 120_000);

it('the next backup removes a leftover first, and keeps the person’s files', async () => {
  const app = await start();
  try {
    const folder = app.backups.folder;
    mkdirSync(folder, { recursive: true });
    const leftover = 'paydesk-2026-11-26T09-00-00-000Z.sqlite.partial';
    const sqliteBeside = `${leftover}-journal`;
    const theirs = 'paydesk-2026-11-26T09-00-00-000Z.sqlite.partial.bak';
    for (const name of [leftover, sqliteBeside, theirs]) {
      writeFileSync(join(folder, name), 'half');
      utimesSync(join(folder, name), HOURS_AGO(5), HOURS_AGO(5));
    }
    const made = await app.backups.backupNow();
    expect(readdirSync(folder).sort()).toEqual([made.name, theirs].sort());
  } finally {
    await app.close();
  }
}, 60_000);
