// main/desktop.ts's start with Electron mocked and the real services: the bridge answers
// lifecycle.* from the first moment, the window is told each step, a keychain that waits on a
// prompt is a sentence with choices, every other call waits for the services, and a quit during
// the wait still stops cleanly. The keychain is the real keytar adapter over a keytar that waits
// as the OS's does while it shows a prompt.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeEach, expect, it, vi } from 'vitest';

import type * as Secrets from '../../../main/secrets';
import type { KeytarApi } from '../../../main/secrets';
import * as fake from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

// The keychain is locked: its writes wait until `answerPrompt()` unlocks it, then all work.
const prompt = vi.hoisted(() => ({ waiting: [] as (() => void)[], unlocked: false }));
function answerPrompt(): void {
  prompt.unlocked = true;
  prompt.waiting.splice(0).forEach((resolve) => resolve());
}
vi.mock('../../../main/secrets', async (original) => {
  const real: typeof Secrets = await original();
  const values = new Map<string, string>();
  const keytar: KeytarApi = {
    setPassword: async (service, account, password) => {
      if (!prompt.unlocked) await new Promise<void>((resolve) => prompt.waiting.push(resolve));
      values.set(`${service}/${account}`, password);
    },
    getPassword: (service, account) => Promise.resolve(values.get(`${service}/${account}`) ?? null),
    deletePassword: (service, account) => Promise.resolve(values.delete(`${service}/${account}`)),
  };
  class PromptingKeytarStore extends real.KeytarSecretStore {
    constructor() {
      super({ loadKeytar: () => Promise.resolve(keytar) });
    }
  }
  return { ...real, KeytarSecretStore: PromptingKeytarStore };
});

const { startDesktop } = await import('../../../main/desktop');

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
beforeEach(() => {
  prompt.unlocked = false;
  fake.ipcMain.handle.mockClear();
});

const TOP_FRAME = { senderFrame: { url: 'app://paydesk/index.html', parent: null } };
function call(channel: string): Promise<unknown> {
  const registered = fake.ipcMain.handle.mock.calls.findLast(([name]) => name === channel);
  if (!registered) throw new Error(`${channel} is not registered`);
  const handler = registered[1] as (event: unknown, payload: unknown) => Promise<unknown>;
  return handler(TOP_FRAME, {});
}

function lifecycleMessage(answer: unknown): string {
  return (answer as { data: { message?: string } }).data.message ?? '';
}

async function start() {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-desktop-start-'));
  dirs.push(dir);
  const window = new fake.BrowserWindow({});
  const desktop = await startDesktop({
    userDataDir: dir,
    documentsDir: dir,
    version: 'test',
    dialog: fake.dialog as never,
    clipboard: fake.clipboard,
    currentWindow: () => window as never,
    relaunch: () => undefined,
    keychainBoundMs: 50,
  });
  const told = () =>
    window.webContents.sent
      .filter(([channel]) => channel === 'paydesk:event.lifecycle')
      .map(([, state]) => state as { phase: string; step: string });
  return { desktop, told };
}

it('answers the window while the keychain waits on a prompt, offers the choices, and starts once it is answered', async () => {
  const { desktop, told } = await start();
  await vi.waitFor(() => expect(told().at(-1)).toMatchObject({ phase: 'keychain-waiting' }));
  expect(told().map((s) => s.step)).toEqual(
    expect.arrayContaining([
      'Opening the database',
      'Opening the journal',
      'Checking the keychain',
    ]),
  );
  expect(await call('paydesk:lifecycle.state')).toMatchObject({
    ok: true,
    data: { phase: 'keychain-waiting' },
  });
  expect(lifecycleMessage(await call('paydesk:lifecycle.state'))).toContain('unlock it');
  // Any other call waits for the services instead of failing.
  let status: unknown;
  void call('paydesk:app.status').then((answer) => (status = answer));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(status).toBeUndefined();

  expect(await call('paydesk:lifecycle.retryKeychain')).toMatchObject({
    ok: true,
    data: { phase: 'starting', step: 'Checking the keychain' },
  });
  answerPrompt();
  await desktop.ready;
  await vi.waitFor(() =>
    expect(status).toMatchObject({ ok: true, data: { keychain: { usable: true } } }),
  );
  expect(told().at(-1)).toEqual({ phase: 'ready', step: 'Ready' });
  await desktop.stop();
}, 60_000);

it('starts without the keychain when the person chooses to, and says so', async () => {
  const { desktop, told } = await start();
  await vi.waitFor(() => expect(told().at(-1)).toMatchObject({ phase: 'keychain-waiting' }));
  await call('paydesk:lifecycle.skipKeychain');
  const services = await desktop.ready;
  expect(services.report.keychain.usable).toBe(false);
  expect(services.report.keychain).toHaveProperty(
    'message',
    expect.stringContaining('started without the keychain') as unknown,
  );
  expect(await call('paydesk:lifecycle.state')).toEqual({
    ok: true,
    data: { phase: 'ready', step: 'Ready' },
  });
  await desktop.stop();
  answerPrompt();
}, 60_000);

it('quitting while the keychain waits stops cleanly, says so, and refuses new calls', async () => {
  const { desktop, told } = await start();
  await vi.waitFor(() => expect(told().at(-1)).toMatchObject({ phase: 'keychain-waiting' }));
  const stopped = desktop.stop();
  expect(told().at(-1)).toMatchObject({ phase: 'stopping' });
  expect(await call('paydesk:profiles.list')).toMatchObject({
    ok: false,
    error: { message: 'Paydesk is closing; start it again once it has.' },
  });
  await stopped;
  const steps = told()
    .filter((s) => s.phase === 'stopping')
    .map((s) => s.step);
  expect(steps).toEqual(expect.arrayContaining(['Closing the journal']));
  expect(fake.ipcMain.removeHandler).toHaveBeenCalledWith('paydesk:lifecycle.state');
  answerPrompt();
}, 60_000);
