import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { FakeBrowserWindow, shell } from './fake-electron';
import {
  BACKGROUND,
  EXTERNAL_LINK_ALLOWLIST,
  MAX_RELOADS,
  createMainWindow,
  isAllowedExternalUrl,
} from '../../../main/window';

vi.mock('electron', () => import('./fake-electron'));

const ALLOWLIST = ['https://docs.gateway.example'];
const PRELOAD = '/opt/paydesk/resources/app.asar/out/preload/index.cjs';

function openWindow(
  overrides: {
    isPackaged?: boolean;
    allowlist?: readonly string[];
    dark?: boolean;
    onReloaded?: (why: string) => void;
  } = {},
) {
  const before = FakeBrowserWindow.instances.length;
  createMainWindow({
    preloadPath: PRELOAD,
    isPackaged: overrides.isPackaged ?? true,
    externalLinkAllowlist: overrides.allowlist ?? ALLOWLIST,
    dark: overrides.dark ?? false,
    ...(overrides.onReloaded ? { onReloaded: overrides.onReloaded } : {}),
  });
  const window = FakeBrowserWindow.instances[before];
  if (window === undefined) throw new Error('createMainWindow built no BrowserWindow');
  return window;
}

function navigation(url: string, isMainFrame = true) {
  return { url, isMainFrame, preventDefault: vi.fn() };
}

function openWindowRequest(window: FakeBrowserWindow, url: string) {
  const handler = window.webContents.windowOpenHandler;
  if (handler === null) throw new Error('no window open handler installed');
  return handler({ url });
}

beforeEach(() => {
  FakeBrowserWindow.instances.length = 0;
  vi.clearAllMocks();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the main window', () => {
  it('runs the renderer isolated, sandboxed and without Node', () => {
    const prefs = openWindow().options.webPreferences;
    expect(prefs).toMatchObject({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('has devtools only in development builds', () => {
    expect(openWindow({ isPackaged: true }).options.webPreferences?.devTools).toBe(false);
    expect(openWindow({ isPackaged: false }).options.webPreferences?.devTools).toBe(true);
  });

  it('loads the UI from the app protocol, and shows itself once painted', () => {
    const window = openWindow();
    expect(window.loadURL).toHaveBeenCalledWith('app://paydesk/index.html');
    expect(window.options.show).toBe(false);
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledOnce();
  });

  it.each([
    'https://evil.example/phish',
    'app://paydesk/other.html',
    'file:///etc/passwd',
    'https://docs.gateway.example/guide',
  ])('refuses to navigate to %s', (url) => {
    const window = openWindow();
    const event = navigation(url);
    window.webContents.emit('will-navigate', event);
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('hands an allowlisted link followed in the page to the system browser', () => {
    const window = openWindow();
    window.webContents.emit('will-navigate', navigation('https://docs.gateway.example/guide'));
    window.webContents.emit('will-navigate', navigation('https://evil.example/'));
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith('https://docs.gateway.example/guide');
  });

  it('refuses navigation inside subframes', () => {
    const window = openWindow();
    const event = navigation('https://evil.example/', false);
    window.webContents.emit('will-frame-navigate', event);
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('never opens a second window, and sends allowlisted links to the system browser', () => {
    const window = openWindow();
    expect(openWindowRequest(window, 'https://docs.gateway.example/a?b=c')).toEqual({
      action: 'deny',
    });
    expect(shell.openExternal).toHaveBeenCalledWith('https://docs.gateway.example/a?b=c');
  });

  it.each([
    'https://evil.example/',
    'https://docs.gateway.example.evil.example/',
    'https://user:pass@docs.gateway.example/',
    'http://docs.gateway.example/',
    'https://docs.gateway.example:8443/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'app://paydesk/index.html',
    'not a url',
  ])('denies window.open(%s) without opening anything', (url) => {
    const window = openWindow();
    expect(openWindowRequest(window, url)).toEqual({ action: 'deny' });
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('opens nothing externally with the built-in allowlist, which is empty', () => {
    expect(EXTERNAL_LINK_ALLOWLIST).toEqual([]);
    const window = openWindow({ allowlist: EXTERNAL_LINK_ALLOWLIST });
    openWindowRequest(window, 'https://docs.gateway.example/');
    window.webContents.emit('will-navigate', navigation('https://docs.gateway.example/'));
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('survives the system browser failing to open', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.mocked(shell.openExternal).mockRejectedValueOnce(new Error('no browser'));
    openWindowRequest(openWindow(), 'https://docs.gateway.example/');
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
  });

  it('refuses to attach a webview', () => {
    const window = openWindow();
    const event = { preventDefault: vi.fn() };
    window.webContents.emit('will-attach-webview', event, {}, {});
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it.each(['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'hid'])(
    'denies a %s permission request and check',
    (permission) => {
      const { session } = openWindow().webContents;
      const callback = vi.fn();
      session.permissionRequestHandler?.({}, permission, callback, {});
      expect(callback).toHaveBeenCalledWith(false);
      expect(callback).not.toHaveBeenCalledWith(true);
      expect(session.permissionCheckHandler?.({}, permission, 'app://paydesk', {})).toBe(false);
    },
  );

  it('installs deny-all permission handlers, device access included', () => {
    const { session } = openWindow().webContents;
    expect(session.permissionRequestHandler).toBeTypeOf('function');
    expect(session.permissionCheckHandler).toBeTypeOf('function');
    expect(session.devicePermissionHandler?.({ deviceType: 'usb' })).toBe(false);
  });
});

describe('the window as a desktop user sees it', () => {
  it('paints its frame in the theme the page will have: no light flash in dark mode', () => {
    expect(openWindow({ dark: true }).options).toMatchObject({
      show: false,
      backgroundColor: BACKGROUND.dark,
    });
    expect(openWindow({ dark: false }).options).toMatchObject({
      backgroundColor: BACKGROUND.light,
    });
  });

  it("the frame colours are the stylesheet's own backgrounds, light and dark", () => {
    const css = readFileSync(
      path.resolve(import.meta.dirname, '../../../renderer/src/styles.css'),
      'utf8',
    );
    const backgrounds = [...css.matchAll(/--bg:\s*(#[0-9a-f]{6})/gi)].map((m) => m[1]);
    expect(backgrounds).toEqual([BACKGROUND.light, BACKGROUND.dark]);
  });

  it('loads the page again after its renderer crashed, and says so', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onReloaded = vi.fn();
    const window = openWindow({ onReloaded });
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 11 });
    expect(window.loadURL).toHaveBeenCalledTimes(2);
    expect(window.loadURL).toHaveBeenLastCalledWith('app://paydesk/index.html');
    expect(onReloaded).toHaveBeenCalledWith('stopped (crashed)');
  });

  it('loads the page again when it failed to load, but not for an aborted load or a subframe', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onReloaded = vi.fn();
    const window = openWindow({ onReloaded });
    window.webContents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', 'app://paydesk/', true);
    window.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://x/', false);
    window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    window.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://paydesk/', true);
    expect(window.loadURL).toHaveBeenCalledTimes(2);
    expect(onReloaded).toHaveBeenCalledOnce();
  });

  it('stops reloading a page that keeps crashing', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const window = openWindow();
    for (let i = 0; i < MAX_RELOADS + 3; i++) {
      window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 11 });
    }
    expect(window.loadURL).toHaveBeenCalledTimes(1 + MAX_RELOADS);
  });
});

describe('isAllowedExternalUrl', () => {
  it.each([
    ['https://docs.gateway.example', true],
    ['https://docs.gateway.example/path?q=1#x', true],
    ['HTTPS://DOCS.GATEWAY.EXAMPLE/', true],
    ['https://docs.gateway.example.evil.example/', false],
    ['https://evil.example/https://docs.gateway.example', false],
    ['https://docs.gateway.example@evil.example/', false],
    ['https://a:b@docs.gateway.example/', false],
    ['http://docs.gateway.example/', false],
    ['ftp://docs.gateway.example/', false],
    ['javascript:location="https://docs.gateway.example"', false],
    ['', false],
  ])('%s -> %s', (url, allowed) => {
    expect(isAllowedExternalUrl(url, ALLOWLIST)).toBe(allowed);
  });

  it('accepts allowlist entries written with a trailing slash, and ignores broken ones', () => {
    expect(
      isAllowedExternalUrl('https://docs.gateway.example/x', [
        'not a url',
        'https://docs.gateway.example/',
      ]),
    ).toBe(true);
  });
});
