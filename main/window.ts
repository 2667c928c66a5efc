// The one BrowserWindow and every hardening switch of design.md's Electron security checklist.
// The renderer holds no secret and reaches nothing but the bridge; these switches keep it so even
// if a bug lets hostile content run in it.

import { BrowserWindow, shell, type WebPreferences } from 'electron';

import { APP_ENTRY_URL } from './protocol';

/**
 * Origins (`https://host[:port]`) whose links may open in the system browser. Empty until a
 * screen links out; a link anywhere else is simply dropped.
 */
export const EXTERNAL_LINK_ALLOWLIST: readonly string[] = [];

export interface MainWindowDeps {
  /** Absolute path of the bundled preload, out/preload/index.cjs. */
  preloadPath: string;
  /** app.isPackaged: devtools exist only in development builds. */
  isPackaged: boolean;
  /** Defaults to EXTERNAL_LINK_ALLOWLIST. */
  externalLinkAllowlist?: readonly string[];
  /** nativeTheme.shouldUseDarkColors: the frame's colour before the page paints. */
  dark: boolean;
  /** Told when the page crashed or failed to load and was loaded again (the log says so). */
  onReloaded?: (why: string) => void;
}

/** renderer/src/styles.css's --bg, light and dark: the frame matches the page it will show. */
export const BACKGROUND = { light: '#f4f6f9', dark: '#11161d' } as const;

/** A page that keeps crashing is not loaded again and again: this many a minute, then it stays. */
export const MAX_RELOADS = 3;
const RELOAD_WINDOW_MS = 60_000;

export function secureWebPreferences(preloadPath: string, isPackaged: boolean): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    // The spellchecker downloads dictionaries from Google; the renderer connects to nothing.
    spellcheck: false,
    devTools: !isPackaged,
  };
}

/**
 * True only for an http(s) URL without credentials whose origin is on the allowlist. Origins are
 * compared whole, so `https://docs.example.com.evil.test` never passes for `docs.example.com`.
 */
export function isAllowedExternalUrl(rawUrl: string, allowlist: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username !== '' || url.password !== '') return false;
  return allowlist.some((entry) => {
    try {
      return new URL(entry).origin === url.origin;
    } catch {
      return false;
    }
  });
}

function openExternalIfAllowed(url: string, allowlist: readonly string[]): void {
  if (!isAllowedExternalUrl(url, allowlist)) return;
  shell.openExternal(url).catch((error: unknown) => {
    console.warn('Paydesk could not open an external link in the system browser.', error);
  });
}

export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const allowlist = deps.externalLinkAllowlist ?? EXTERNAL_LINK_ALLOWLIST;
  const win = new BrowserWindow({
    title: 'Paydesk',
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    // Shown once painted, so nobody sees a blank white frame.
    show: false,
    backgroundColor: deps.dark ? BACKGROUND.dark : BACKGROUND.light,
    webPreferences: secureWebPreferences(deps.preloadPath, deps.isPackaged),
  });
  const { webContents } = win;

  // The UI is one page that never navigates: any navigation is an injected link or script. An
  // allowlisted link goes to the system browser instead, never into this window.
  webContents.on('will-navigate', (event) => {
    event.preventDefault();
    openExternalIfAllowed(event.url, allowlist);
  });
  webContents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) event.preventDefault();
  });

  // No second Electron window, ever: window.open and target=_blank are denied.
  webContents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url, allowlist);
    return { action: 'deny' };
  });

  // webviewTag is already off; refusing here covers anything that turns it back on.
  webContents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });

  // Deny by default (camera, notifications, clipboard reads, devices, ...): Paydesk needs none.
  const { session } = webContents;
  session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);

  win.once('ready-to-show', () => {
    win.show();
  });
  reloadWhenLost(win, deps.onReloaded ?? (() => undefined));
  load(win);
  return win;
}

function load(win: BrowserWindow): void {
  win.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    // did-fail-load says it too, and loads again.
    console.error('Paydesk could not load its user interface.', error);
  });
}

/**
 * A renderer that crashed (or was killed for memory) leaves a blank window, and so does a page
 * that failed to load: the page is loaded again, and the main process's state (the journal, the
 * operations in flight) is untouched by it. The reload opens on the screens as they start, and
 * the log and `onReloaded` say why.
 */
function reloadWhenLost(win: BrowserWindow, onReloaded: (why: string) => void): void {
  let reloads: number[] = [];
  const again = (why: string) => {
    const now = Date.now();
    reloads = reloads.filter((at) => now - at < RELOAD_WINDOW_MS);
    if (win.isDestroyed()) return;
    if (reloads.length >= MAX_RELOADS) {
      console.error(`Paydesk's window ${why}; it is not loaded again (it kept failing).`);
      return;
    }
    reloads.push(now);
    console.error(`Paydesk's window ${why}; loading it again.`);
    onReloaded(why);
    load(win);
  };
  win.webContents.on('render-process-gone', (_event, details) => {
    // 'clean-exit' is the page closing with the window, not a crash.
    if (details.reason === 'clean-exit') return;
    again(`stopped (${details.reason})`);
  });
  win.webContents.on(
    'did-fail-load',
    (_event, errorCode, errorDescription, validatedURL, isMainFrame) => {
      // -3 is ERR_ABORTED: a load replaced by another, not a failure.
      if (!isMainFrame || errorCode === -3) return;
      again(`could not load ${validatedURL} (${errorDescription})`);
    },
  );
}
