// main/index.ts runs on import, as Electron runs it: each test loads a fresh copy against a fresh
// fake Electron, then plays the app's events.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { Lifecycle, READY, RELOADED_MESSAGE, STOP_BOUND_MS } from '../../../main/lifecycle';
import type * as FakeElectron from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

type Fake = typeof FakeElectron;

// main/desktop.ts as index.ts sees it: a real Lifecycle, services that start when `started`
// says so (at once by default), a stop that can be held.
const desktop = {
  stop: vi.fn(() => Promise.resolve()),
  start: vi.fn((_deps: unknown) => Promise.resolve(startedDesktop(Promise.resolve({})))),
};
function startedDesktop(ready: Promise<unknown>) {
  ready.catch(() => undefined);
  return { lifecycle: new Lifecycle(), ready, stop: desktop.stop };
}

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

  it('quits when the window closes on Linux and Windows', async () => {
    pretendPlatform('linux');
    const fake = await launchReady();
    onlyWindow(fake).close();
    expect(fake.app.quit).toHaveBeenCalledOnce();
    fake.app.emit('window-all-closed');
    expect(fake.app.quit).toHaveBeenCalledTimes(2);
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

  it('opens a window on a second start after its window has closed (macOS)', async () => {
    pretendPlatform('darwin');
    const fake = await launchReady();
    const window = onlyWindow(fake);
    window.close();
    fake.app.emit('second-instance', {}, [], '/');
    expect(window.focus).not.toHaveBeenCalled();
    expect(fake.BrowserWindow.getAllWindows()).toHaveLength(1);
    expect(fake.BrowserWindow.instances).toHaveLength(2);
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

  it('registers the bridge in the user data folder, then opens the window while the services still start', async () => {
    desktop.start.mockClear();
    const fake = await launch({ lock: true });
    let windowsWhenStarted = -1;
    // A start that waits (a keychain prompt): the window is there all the same.
    desktop.start.mockImplementationOnce((_deps: unknown) => {
      windowsWhenStarted = fake.BrowserWindow.instances.length;
      return Promise.resolve(startedDesktop(new Promise(() => undefined)));
    });
    fake.becomeReady();
    await vi.waitFor(() => expect(fake.BrowserWindow.instances).toHaveLength(1));
    expect(windowsWhenStarted).toBe(0);
    expect(desktop.start).toHaveBeenCalledWith(
      expect.objectContaining({ userDataDir: '/tmp/paydesk-fake-userData' }),
    );
    expect(onlyWindow(fake).loadURL).toHaveBeenCalledWith('app://paydesk/index.html');

    // A second launch meanwhile brings that window forward instead of doing nothing.
    fake.app.emit('second-instance', {}, ['paydesk'], '/');
    expect(onlyWindow(fake).focus).toHaveBeenCalledOnce();
    expect(fake.app.exit).not.toHaveBeenCalled();
  });

  it('stops the services before quitting, once, then exits', async () => {
    desktop.stop.mockClear();
    const fake = await launchReady();
    let prevented = 0;
    fake.app.emit('before-quit', { preventDefault: () => prevented++ });
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
    expect(prevented).toBe(1);
    expect(desktop.stop).toHaveBeenCalledOnce();
    fake.app.emit('before-quit', { preventDefault: () => prevented++ });
    expect(desktop.stop).toHaveBeenCalledOnce();
  });

  it('exits within the bound when the services do not stop, and a relaunch meanwhile finds the window', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = await launchReady();
    desktop.stop.mockImplementationOnce(() => new Promise(() => undefined));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fake.app.emit('before-quit', { preventDefault: () => undefined });
      fake.app.emit('second-instance', {}, ['paydesk'], '/');
      expect(onlyWindow(fake).focus).toHaveBeenCalledOnce();
      await vi.advanceTimersByTimeAsync(STOP_BOUND_MS - 1);
      expect(fake.app.exit).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(fake.app.exit).toHaveBeenCalledWith(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the window open while quitting on Linux, so it can say what is being finished', async () => {
    pretendPlatform('linux');
    const fake = await launchReady();
    let finish: () => void = () => undefined;
    desktop.stop.mockImplementationOnce(() => new Promise<void>((r) => (finish = r)));
    fake.app.quit.mockImplementation(() =>
      fake.app.emit('before-quit', { preventDefault: () => undefined }),
    );
    const window = onlyWindow(fake);
    window.close();
    expect(window.destroyed).toBe(false);
    expect(fake.app.quit).toHaveBeenCalled();
    window.close(); // closing again while it finishes changes nothing
    expect(window.destroyed).toBe(false);
    finish();
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
  });

  it('a crashed window is loaded again and the page says so', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    desktop.start.mockClear();
    const fake = await launchReady();
    const started = (await desktop.start.mock.results[0]?.value) as {
      lifecycle: Lifecycle;
    };
    started.lifecycle.set(READY);
    onlyWindow(fake).webContents.emit('render-process-gone', {}, { reason: 'oom' });
    expect(onlyWindow(fake).loadURL).toHaveBeenCalledTimes(2);
    expect(started.lifecycle.current).toEqual({ ...READY, message: RELOADED_MESSAGE });
  });

  it("gives Linux and Windows Paydesk's own menu: Edit, View zoom, Help; no Reload, no DevTools", async () => {
    pretendPlatform('linux');
    const fake = await launchReady();
    expect(fake.Menu.setApplicationMenu).toHaveBeenCalledOnce();
    const template = fake.Menu.buildFromTemplate.mock.calls[0]?.[0] as {
      label: string;
      submenu: { role?: string; label?: string }[];
    }[];
    expect(template.map((m) => m.label.replace('&', ''))).toEqual(['Edit', 'View', 'Help']);
    const roles = template.flatMap((m) => m.submenu.map((item) => item.role ?? ''));
    expect(roles).toEqual(expect.arrayContaining(['copy', 'paste', 'zoomIn', 'zoomOut']));
    for (const banned of ['reload', 'forceReload', 'toggleDevTools'])
      expect(roles).not.toContain(banned);
  });

  it('leaves macOS its own application menu', async () => {
    pretendPlatform('darwin');
    const fake = await launchReady();
    expect(fake.Menu.setApplicationMenu).not.toHaveBeenCalled();
  });

  it('opens a dark frame in dark mode', async () => {
    const fake = await launch({ lock: true });
    fake.nativeTheme.shouldUseDarkColors = true;
    fake.becomeReady();
    await vi.waitFor(() => expect(fake.BrowserWindow.instances).toHaveLength(1));
    expect(onlyWindow(fake).options.backgroundColor).toBe('#11161d');
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
      Promise.resolve(
        startedDesktop(Promise.reject(new Error('Paydesk could not open its database'))),
      ),
    );
    fake.becomeReady();
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(1));
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith(
      'Paydesk could not start',
      'Paydesk could not open its database',
    );
  });
});
