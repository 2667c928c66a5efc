// The app's lifecycle and nothing else: one instance, the app:// scheme, the services and
// their bridge (main/desktop.ts), one window.

import path from 'node:path';

import { app, BrowserWindow, clipboard, dialog, protocol } from 'electron';

import { flushCompileCache } from './compile-cache';
import { startDesktop, type Desktop } from './desktop';
import { registerAppProtocol, registerAppSchemeAsPrivileged } from './protocol';
import { createMainWindow } from './window';

let mainWindow: BrowserWindow | null = null;
let desktop: Desktop | undefined;

function openMainWindow(): void {
  // The app path is the folder (or app.asar) holding package.json; the build writes out/ there.
  const win = createMainWindow({
    preloadPath: path.join(app.getAppPath(), 'out', 'preload', 'index.cjs'),
    isPackaged: app.isPackaged,
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  mainWindow = win;
}

async function onReady(): Promise<void> {
  registerAppProtocol(protocol, path.join(app.getAppPath(), 'out', 'renderer'));

  // Services and the bridge exist before the first window, so no call from the renderer can
  // arrive ahead of its handler.
  desktop = await startDesktop({
    userDataDir: app.getPath('userData'),
    documentsDir: app.getPath('documents'),
    version: app.getVersion(),
    dialog,
    clipboard,
    currentWindow: () => mainWindow ?? undefined,
    relaunch: () => {
      app.relaunch();
      app.exit(0);
    },
  });

  openMainWindow();
  // What start compiled, for the next start (main/boot.ts turned the cache on).
  setImmediate(flushCompileCache);

  // macOS keeps the app alive with no window; clicking the dock icon brings one back.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });
}

// Two instances would share one journal database and one keychain: the second one hands over to
// the first and leaves.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Sandbox every renderer, including any created by code that forgets the switch.
  app.enableSandbox();
  // Privileged schemes can only be registered before 'ready'.
  registerAppSchemeAsPrivileged(protocol);

  app.on('second-instance', () => {
    if (mainWindow === null) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Entries still in flight stay in the journal and are reconciled at the next start.
  let stopping = false;
  app.on('before-quit', (event) => {
    if (!desktop || stopping) return;
    stopping = true;
    event.preventDefault();
    void desktop.stop().finally(() => app.quit());
  });

  app
    .whenReady()
    .then(onReady)
    .catch((error: unknown) => {
      // Without a window nothing would ever quit the app, so leave rather than linger unseen.
      console.error('Paydesk failed to start.', error);
      dialog.showErrorBox(
        'Paydesk could not start',
        error instanceof Error ? error.message : String(error),
      );
      app.exit(1);
    });
}
