import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { FakeBrowserWindow, shell } from './fake-electron';
import {
  EXTERNAL_LINK_ALLOWLIST,
  createMainWindow,
  isAllowedExternalUrl,
} from '../../../main/window';

vi.mock('electron', () => import('./fake-electron'));

const ALLOWLIST = ['https://docs.gateway.example'];
const PRELOAD = '/opt/paydesk/resources/app.asar/out/preload/index.cjs';

function openWindow(overrides: { isPackaged?: boolean; allowlist?: readonly string[] } = {}) {
  const before = FakeBrowserWindow.instances.length;
  createMainWindow({
    preloadPath: PRELOAD,
    isPackaged: overrides.isPackaged ?? true,
    externalLinkAllowlist: overrides.allowlist ?? ALLOWLIST,
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
