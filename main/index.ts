// The app's lifecycle and nothing else: one instance, the app:// scheme, one window.

import path from 'node:path';

import { app, BrowserWindow, protocol } from 'electron';

import { registerAppProtocol, registerAppSchemeAsPrivileged } from './protocol';
import { createMainWindow } from './window';

let mainWindow: BrowserWindow | null = null;

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

function onReady(): void {
  registerAppProtocol(protocol, path.join(app.getAppPath(), 'out', 'renderer'));

  // Services are wired here (store, secrets, sandbox, bridge handlers) in a later issue: before
  // the first window exists, so no call from the renderer can arrive ahead of its handler.

  openMainWindow();

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

  app
    .whenReady()
    .then(onReady)
    .catch((error: unknown) => {
      // Without a window nothing would ever quit the app, so leave rather than linger unseen.
      console.error('Paydesk failed to start.', error);
      app.exit(1);
    });
}
