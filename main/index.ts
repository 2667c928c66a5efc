// The app's lifecycle and nothing else: one instance, the app:// scheme, the window first (it
// shows how the start is going), the services and their bridge (main/desktop.ts), and a quit
// that says what it finishes and exits within a bound.

import path from 'node:path';

import { app, BrowserWindow, clipboard, dialog, Menu, nativeTheme, protocol } from 'electron';

import { flushCompileCache } from './compile-cache';
import { startDesktop, type Desktop } from './desktop';
import { printHtmlToPdf } from './print-pdf';
import { READY, RELOADED_MESSAGE, STOP_BOUND_MS, withinBound } from './lifecycle';
import { paydeskMenuTemplate } from './menu';
import { registerAppProtocol, registerAppSchemeAsPrivileged } from './protocol';
import { createMainWindow } from './window';

let mainWindow: BrowserWindow | null = null;
let desktop: Desktop | undefined;
let quitting = false;

function openMainWindow(): void {
  // The app path is the folder (or app.asar) holding package.json; the build writes out/ there.
  const win = createMainWindow({
    preloadPath: path.join(app.getAppPath(), 'out', 'preload', 'index.cjs'),
    isPackaged: app.isPackaged,
    dark: nativeTheme.shouldUseDarkColors,
    onReloaded: () => desktop?.lifecycle.set({ ...READY, message: RELOADED_MESSAGE }),
  });
  win.on('close', (event) => {
    // Closing the window quits on Windows and Linux: the window stays until the services have
    // stopped, saying what is being finished, and the exit closes it.
    if (quitting || (process.platform !== 'darwin' && desktop)) {
      event.preventDefault();
      app.quit();
    }
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  mainWindow = win;
}

/** A second launch, or the dock: the window comes forward, or a new one opens. */
function showMainWindow(): void {
  if (mainWindow === null) {
    openMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function onReady(): Promise<void> {
  registerAppProtocol(protocol, path.join(app.getAppPath(), 'out', 'renderer'));
  if (process.platform !== 'darwin') {
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        paydeskMenuTemplate({
          version: app.getVersion(),
          about: () => {
            void dialog.showMessageBox({
              type: 'info',
              title: 'About Paydesk',
              message: `Paydesk ${app.getVersion()}`,
              detail: 'Back-office console for the card payment gateway.',
            });
          },
        }),
      ),
    );
  }

  // The bridge is registered before the window opens, so no call from the renderer can arrive
  // ahead of its handler; the services start behind it and the window shows their progress.
  desktop = await startDesktop({
    userDataDir: app.getPath('userData'),
    documentsDir: app.getPath('documents'),
    version: app.getVersion(),
    isPackaged: app.isPackaged,
    dialog,
    clipboard,
    printPdf: printHtmlToPdf,
    currentWindow: () => mainWindow ?? undefined,
    relaunch: () => {
      app.relaunch();
      app.exit(0);
    },
  });
  openMainWindow();

  // macOS keeps the app alive with no window; clicking the dock icon brings one back.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });

  await desktop.ready;
  // What start compiled, for the next start (main/boot.ts turned the cache on).
  setImmediate(flushCompileCache);
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

  // During the start and the shutdown too: the window shows which, so a relaunch never seems
  // to do nothing.
  app.on('second-instance', () => {
    if (desktop) showMainWindow();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Entries still in flight stay in the journal and are reconciled at the next start.
  app.on('before-quit', (event) => {
    if (!desktop) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    void withinBound(desktop.stop(), STOP_BOUND_MS).then((stopped) => {
      if (!stopped) {
        console.warn(
          `Paydesk's services did not stop within ${STOP_BOUND_MS / 1000} s; exiting anyway. ` +
            'Operations still in flight are reconciled at the next start.',
        );
      }
      app.exit(0);
    });
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
