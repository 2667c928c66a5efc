// main/index.ts runs on import, as Electron runs it: each test loads a fresh copy against a fresh
// fake Electron, then plays the app's events.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type * as FakeElectron from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

type Fake = typeof FakeElectron;

const desktop = {
  stop: vi.fn(() => Promise.resolve()),
  start: vi.fn((_deps: unknown) => Promise.resolve({ services: {}, stop: desktop.stop })),
};

// An app folder laid out like the build's, so the served UI can be checked for real.
let appPath: string;
beforeAll(() => {
  appPath = mkdtempSync(path.join(os.tmpdir(), 'paydesk-app-'));
  mkdirSync(path.join(appPath, 'out', 'renderer'), { recursive: true });
  writeFileSync(path.join(appPath, 'out', 'renderer', 'index.html'), '<title>Paydesk</title>');
});
afterAll(() => {
  rmSync(appPath, { recursive: true, force: true });
});

const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform');
function pretendPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true });
}
afterEach(() => {
  if (realPlatform !== undefined) Object.defineProperty(process, 'platform', realPlatform);
  vi.restoreAllMocks();
});

/** Loads main/index.ts the way Electron would, with or without the single-instance lock. */
async function launch(options: { lock: boolean }): Promise<Fake> {
  vi.resetModules();
  const fake = await import('./fake-electron');
  // The hoisted mock's module would be reused across resets; bind this copy's fake instead.
  vi.doMock('electron', () => fake);
  fake.app.requestSingleInstanceLock.mockReturnValue(options.lock);
  fake.app.getAppPath.mockReturnValue(appPath);
  // The services are tested for real elsewhere (test/integration); here only the lifecycle.
  vi.doMock('../../../main/desktop', () => ({ startDesktop: desktop.start }));
  await import('../../../main/index');
  return fake;
}

async function launchReady(): Promise<Fake> {
  const fake = await launch({ lock: true });
  fake.becomeReady();
  await vi.waitFor(() => expect(fake.BrowserWindow.instances).toHaveLength(1));
  return fake;
}

function onlyWindow(fake: Fake) {
  const [window] = fake.BrowserWindow.instances;
  if (window === undefined) throw new Error('no window was created');
  return window;
}

describe('app lifecycle', () => {
  it('quits at once, touching nothing, when another Paydesk holds the lock', async () => {
    const fake = await launch({ lock: false });
    fake.becomeReady();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.app.quit).toHaveBeenCalledOnce();
    expect(fake.app.whenReady).not.toHaveBeenCalled();
    expect(fake.protocol.registerSchemesAsPrivileged).not.toHaveBeenCalled();
    expect(fake.protocol.handle).not.toHaveBeenCalled();
    expect(fake.BrowserWindow.instances).toHaveLength(0);
    expect(fake.app.listenerCount('second-instance')).toBe(0);
  });

  it('registers the app scheme and sandboxes all renderers before ready, then opens one window', async () => {
    const fake = await launch({ lock: true });
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledOnce();
    expect(fake.app.enableSandbox).toHaveBeenCalledOnce();
    expect(fake.protocol.handle).not.toHaveBeenCalled();
    expect(fake.BrowserWindow.instances).toHaveLength(0);

    fake.becomeReady();
    await vi.waitFor(() => expect(fake.BrowserWindow.instances).toHaveLength(1));
    const window = onlyWindow(fake);
    expect(window.options.webPreferences?.preload).toBe(
      path.join(appPath, 'out', 'preload', 'index.cjs'),
    );
    expect(window.loadURL).toHaveBeenCalledWith('app://paydesk/index.html');
    expect(fake.app.quit).not.toHaveBeenCalled();
  });

  it("serves the build's out/renderer folder on app://", async () => {
    const fake = await launchReady();
    const handler = fake.protocol.handle.mock.calls[0]?.[1] as (r: Request) => Promise<Response>;
    expect(fake.protocol.handle.mock.calls[0]?.[0]).toBe('app');
    const response = await handler(new Request('app://paydesk/index.html'));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<title>Paydesk</title>');
  });

  it('brings the existing window forward when Paydesk is started again', async () => {
    const fake = await launchReady();
    const window = onlyWindow(fake);
    window.isMinimized.mockReturnValue(true);
    fake.app.emit('second-instance', {}, ['paydesk'], '/');
    expect(window.restore).toHaveBeenCalledOnce();
    expect(window.focus).toHaveBeenCalledOnce();
    expect(fake.BrowserWindow.instances).toHaveLength(1);
  });

  it('quits when the last window closes on Linux and Windows', async () => {
    pretendPlatform('linux');
    const fake = await launchReady();
    onlyWindow(fake).close();
    fake.app.emit('window-all-closed');
    expect(fake.app.quit).toHaveBeenCalledOnce();
  });

  it('stays alive on macOS and reopens the window from the dock', async () => {
    pretendPlatform('darwin');
    const fake = await launchReady();
    onlyWindow(fake).close();
    fake.app.emit('window-all-closed');
    expect(fake.app.quit).not.toHaveBeenCalled();

    fake.app.emit('activate');
    expect(fake.BrowserWindow.getAllWindows()).toHaveLength(1);
    fake.app.emit('activate');
    expect(fake.BrowserWindow.getAllWindows()).toHaveLength(1);
  });

  it('does nothing on a second start after its window has closed (macOS)', async () => {
    pretendPlatform('darwin');
    const fake = await launchReady();
    const window = onlyWindow(fake);
    window.close();
    fake.app.emit('second-instance', {}, [], '/');
    expect(window.focus).not.toHaveBeenCalled();
  });

  it('exits with an error instead of lingering windowless when start-up fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = await launch({ lock: true });
    fake.protocol.handle.mockImplementationOnce(() => {
      throw new Error('scheme already handled');
    });
    fake.becomeReady();
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(1));
    expect(error).toHaveBeenCalled();
    expect(fake.BrowserWindow.instances).toHaveLength(0);
  });

  it('starts the services in the user data folder before the first window exists', async () => {
    desktop.start.mockClear();
    const fake = await launch({ lock: true });
    let windowsWhenStarted = -1;
    desktop.start.mockImplementationOnce((_deps: unknown) => {
      windowsWhenStarted = fake.BrowserWindow.instances.length;
      return Promise.resolve({ services: {}, stop: desktop.stop });
    });
    fake.becomeReady();
    await vi.waitFor(() => expect(fake.BrowserWindow.instances).toHaveLength(1));
    expect(windowsWhenStarted).toBe(0);
    expect(desktop.start).toHaveBeenCalledWith(
      expect.objectContaining({ userDataDir: '/tmp/paydesk-fake-userData' }),
    );
  });

  it('stops the services before quitting, once', async () => {
    desktop.stop.mockClear();
    const fake = await launchReady();
    let prevented = 0;
    fake.app.emit('before-quit', { preventDefault: () => prevented++ });
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalledOnce());
    expect(prevented).toBe(1);
    expect(desktop.stop).toHaveBeenCalledOnce();
    fake.app.emit('before-quit', { preventDefault: () => prevented++ });
    expect(prevented).toBe(1);
  });

  it('switching journals starts the app again: relaunch, then exit (the services stopped first, in desktop.ts)', async () => {
    desktop.start.mockClear();
    const fake = await launchReady();
    const deps = desktop.start.mock.calls[0]?.[0] as { relaunch: () => void };
    expect(fake.app.relaunch).not.toHaveBeenCalled();
    deps.relaunch();
    expect(fake.app.relaunch).toHaveBeenCalledOnce();
    expect(fake.app.exit).toHaveBeenLastCalledWith(0);
    expect(fake.app.relaunch.mock.invocationCallOrder[0]).toBeLessThan(
      fake.app.exit.mock.invocationCallOrder.at(-1) ?? 0,
    );
  });

  it('says why and exits when the services cannot start', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = await launch({ lock: true });
    desktop.start.mockImplementationOnce(() =>
      Promise.reject(new Error('Paydesk could not open its database')),
    );
    fake.becomeReady();
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(1));
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith(
      'Paydesk could not start',
      'Paydesk could not open its database',
    );
    expect(fake.BrowserWindow.instances).toHaveLength(0);
  });
});
