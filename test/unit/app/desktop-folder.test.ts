// Settings -> Backups' Choose folder… through main/desktop.ts with Electron mocked: the system's
// folder picker opens in main (showOpenDialog, for folders, at the folder in use, over the
// window), the folder chosen is checked and saved, Cancel changes nothing, and a folder that
// does not exist or cannot be written is refused with a sentence naming it and what to fix. The
// typed path (backups.setFolder) gets the same checks.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it, vi } from 'vitest';

import type * as Secrets from '../../../main/secrets';
import * as fake from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));
// The real keychain is tested in test/keychain; here the desk's keychain is the in-memory one.
vi.mock('../../../main/secrets', async (original) => {
  const real: typeof Secrets = await original();
  return { ...real, KeytarSecretStore: real.MemorySecretStore };
});

const { startDesktop } = await import('../../../main/desktop');

const dir = mkdtempSync(join(tmpdir(), 'paydesk-desktop-folder-'));
const window = new fake.BrowserWindow({});
let desktop: Awaited<ReturnType<typeof startDesktop>>;
type Handler = (event: unknown, payload: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();

beforeAll(async () => {
  desktop = await startDesktop({
    userDataDir: dir,
    documentsDir: dir,
    version: 'test',
    dialog: fake.dialog as never,
    clipboard: fake.clipboard,
    currentWindow: () => window as never,
    relaunch: () => undefined,
  });
  await desktop.ready;
  // Kept now: Vitest clears the mocks' calls before each test.
  for (const [channel, handler] of fake.ipcMain.handle.mock.calls)
    handlers.set(channel as string, handler as Handler);
}, 60_000);
afterAll(async () => {
  await desktop?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const TOP_FRAME = { senderFrame: { url: 'app://paydesk/index.html', parent: null } };
async function call(channel: string, payload: unknown = {}): Promise<unknown> {
  const handler = handlers.get(channel);
  if (!handler) throw new Error(`${channel} is not registered`);
  return handler(TOP_FRAME, payload);
}
const savedFolder = () =>
  (JSON.parse(readFileSync(join(dir, 'backups.json'), 'utf8')) as { folder: string }).folder;
const picks = (answer: { canceled: boolean; filePaths: string[] }) =>
  fake.dialog.showOpenDialog.mockResolvedValueOnce(answer);

it('opens the folder picker over the window at the folder in use, and saves the folder chosen', async () => {
  const chosen = mkdtempSync(join(dir, 'share-'));
  picks({ canceled: false, filePaths: [chosen] });
  const answer = await call('paydesk:backups.chooseFolder');
  expect(answer).toMatchObject({ ok: true, data: { chosen: true, status: { folder: chosen } } });
  expect(fake.dialog.showOpenDialog).toHaveBeenCalledOnce();
  const [parent, options] = fake.dialog.showOpenDialog.mock.calls[0]!;
  expect(parent).toBe(window);
  expect(options).toMatchObject({
    defaultPath: join(dir, 'backups'),
    properties: expect.arrayContaining(['openDirectory']) as unknown,
  });
  expect(savedFolder()).toBe(chosen);
  // A backup goes there.
  const made = await call('paydesk:backups.backUpNow');
  expect(made).toMatchObject({
    ok: true,
    data: { path: expect.stringContaining(chosen) as unknown },
  });
}, 60_000);

it('does not make the chosen folder again once it is gone (a share not connected): the backup fails, saying so', async () => {
  const share = mkdtempSync(join(dir, 'share-'));
  picks({ canceled: false, filePaths: [share] });
  await call('paydesk:backups.chooseFolder');
  rmSync(share, { recursive: true });
  const answer = (await call('paydesk:backups.backUpNow')) as {
    ok: boolean;
    error: { message: string };
  };
  expect(answer.ok).toBe(false);
  expect(answer.error.message).toBe(
    `The last backup into ${share} failed: the folder ${share} is not there. Connect the disk or network share it is on, or choose another folder in Settings -> Backups.`,
  );
  expect(existsSync(share)).toBe(false);
  expect(await call('paydesk:backups.status')).toMatchObject({
    ok: true,
    data: { lastError: answer.error.message },
  });
}, 60_000);

it('changes nothing when the person cancels the picker', async () => {
  const before = savedFolder();
  picks({ canceled: true, filePaths: [] });
  expect(await call('paydesk:backups.chooseFolder')).toMatchObject({
    ok: true,
    data: { chosen: false, status: { folder: before } },
  });
  expect(savedFolder()).toBe(before);
});

it('refuses a folder that does not exist, naming it and what to fix, and makes none', async () => {
  const before = savedFolder();
  const missing = join(dir, 'not-connected-share', 'backups');
  picks({ canceled: false, filePaths: [missing] });
  const answer = await call('paydesk:backups.chooseFolder');
  expect(answer).toMatchObject({
    ok: false,
    error: {
      code: 'INPUT',
      message: `The folder ${missing} does not exist. Make it first (or connect the disk or network share it is on), then choose it again.`,
    },
  });
  // Typed, the same.
  expect(await call('paydesk:backups.setFolder', { folder: missing })).toMatchObject({
    ok: false,
    error: { message: expect.stringContaining(`The folder ${missing} does not exist.`) as unknown },
  });
  expect(savedFolder()).toBe(before);
  expect(() => readFileSync(missing)).toThrow(/ENOENT/);
});

it('refuses a folder it cannot write in, and a file, saying what to fix', async () => {
  const before = savedFolder();
  // Root writes in any folder of a disk; a kernel folder refuses even root.
  const locked =
    process.getuid?.() === 0
      ? '/sys'
      : (() => {
          const made = join(dir, 'read-only');
          mkdirSync(made);
          chmodSync(made, 0o500);
          return made;
        })();
  picks({ canceled: false, filePaths: [locked] });
  const answer = (await call('paydesk:backups.chooseFolder')) as {
    ok: boolean;
    error: { code: string; message: string };
  };
  expect(answer.ok).toBe(false);
  expect(answer.error.message).toMatch(
    new RegExp(
      `^Paydesk cannot write in ${locked} \\((EACCES|EPERM|EROFS)\\)\\. Choose a folder you may write in, or ask whoever manages it for write access\\.$`,
    ),
  );
  const file = join(dir, 'notes.txt');
  writeFileSync(file, 'mine');
  expect(await call('paydesk:backups.setFolder', { folder: file })).toMatchObject({
    ok: false,
    error: {
      message: `${file} is a file, not a folder. Choose the folder to keep the backups in.`,
    },
  });
  expect(await call('paydesk:backups.setFolder', { folder: 'backups' })).toMatchObject({
    ok: false,
    error: {
      message:
        'backups is not a whole folder path. Enter it from the root of a disk (such as /home/you/backups or D:\\Backups), or pick it with the Choose folder button.',
    },
  });
  expect(savedFolder()).toBe(before);
});
