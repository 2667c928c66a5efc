// main/desktop.ts with Electron mocked: switching journals from Settings -> Team journal answers
// the window first, then stops the services (the bridge unregistered, the journal closed), and
// only then starts the app again (app.relaunch + app.exit, handed in by main/index.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it, vi } from 'vitest';

import type * as Secrets from '../../../main/secrets';
import * as fake from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));
// The real keychain is tested in test/keychain; here the desk's keychain is the in-memory one.
vi.mock('../../../main/secrets', async (original) => {
  const real: typeof Secrets = await original();
  return { ...real, KeytarSecretStore: real.MemorySecretStore };
});

const { startDesktop } = await import('../../../main/desktop');

const dir = mkdtempSync(join(tmpdir(), 'paydesk-desktop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('"Stop using it" answers, stops the services, then relaunches the app', async () => {
  const order: string[] = [];
  fake.ipcMain.removeHandler.mockImplementation(() => {
    if (!order.includes('unregistered')) order.push('unregistered');
  });
  const relaunch = vi.fn(() => order.push('relaunched'));
  const desktop = await startDesktop({
    userDataDir: dir,
    documentsDir: dir,
    version: 'test',
    dialog: fake.dialog as never,
    clipboard: fake.clipboard,
    currentWindow: () => undefined,
    relaunch,
  });
  const closeSpy = vi.spyOn(await desktop.ready, 'close');
  const stop = fake.ipcMain.handle.mock.calls.find(([channel]) => channel === 'paydesk:team.stop');
  expect(stop).toBeDefined();
  const handler = stop![1] as (event: unknown, payload: unknown) => Promise<unknown>;
  const answer = await handler(
    { senderFrame: { url: 'app://paydesk/index.html', parent: null } },
    {},
  );
  expect(answer).toEqual({
    ok: true,
    data: { restarting: true, message: 'Paydesk restarts now to open the journal you chose.' },
  });
  // The answer left before anything stopped.
  expect(relaunch).not.toHaveBeenCalled();
  await vi.waitFor(() => expect(relaunch).toHaveBeenCalledOnce(), { timeout: 20_000 });
  expect(closeSpy).toHaveBeenCalledOnce();
  expect(order).toEqual(['unregistered', 'relaunched']);
  expect(closeSpy.mock.invocationCallOrder[0]).toBeLessThan(relaunch.mock.invocationCallOrder[0]!);
  // A second stop (the app quitting meanwhile) does not close the services twice.
  await desktop.stop();
  expect(closeSpy).toHaveBeenCalledOnce();
}, 60_000);
