// The desktop side of the services: where the data lives (the user data folder), who is at the
// desk (the OS user), the keychain, the save dialog and the clipboard, and the bridge that
// offers it all to the window. main/index.ts calls startDesktop() once the app is ready.

import { userInfo } from 'node:os';
import { join } from 'node:path';

import type { BrowserWindow, Clipboard, Dialog } from 'electron';

import { createBridge, isAppTopFrame, registerBridgeWithElectron, sendEvent } from './bridge';
import { writeContent } from './files';
import { createHandlers } from './handlers';
import { fileLogger } from './log';
import { APP_ORIGIN } from './protocol';
import { KeytarSecretStore } from './secrets';
import { PaydeskServices } from './services/app';
import { journalRowView } from './services/journal';

export interface DesktopDeps {
  userDataDir: string;
  documentsDir: string;
  version: string;
  dialog: Pick<Dialog, 'showSaveDialog'>;
  clipboard: Pick<Clipboard, 'writeText'>;
  /** The window events go to; undefined while none is open. */
  currentWindow: () => BrowserWindow | undefined;
  /**
   * Starts Paydesk again (app.relaunch, then app.exit): the services open their journal once, at
   * start, so switching to or from the team journal is a restart, after the services stopped.
   */
  relaunch: () => void;
}

export interface Desktop {
  services: PaydeskServices;
  stop(): Promise<void>;
}

const FILTERS = {
  pem: [{ name: 'PEM public key', extensions: ['pem'] }],
  csv: [{ name: 'CSV spreadsheet', extensions: ['csv'] }],
  sql: [{ name: 'SQL script', extensions: ['sql'] }],
  json: [{ name: 'Support bundle (JSON)', extensions: ['json'] }],
};

export async function startDesktop(deps: DesktopDeps): Promise<Desktop> {
  const logFile = join(deps.userDataDir, 'paydesk.log');
  const log = fileLogger(logFile);
  const operator = userInfo().username;
  const services = await PaydeskServices.start({
    dataDir: deps.userDataDir,
    secrets: new KeytarSecretStore(),
    operator,
    log,
    onEntryChanged: (entry) => {
      const win = deps.currentWindow();
      if (win) sendEvent(win.webContents, 'journalChanged', journalRowView(entry));
    },
  });
  const bridge = createBridge(
    createHandlers(services, {
      version: deps.version,
      operator,
      logFile,
      saveFile: async (name, content, kind) => {
        const win = deps.currentWindow();
        const options = { defaultPath: join(deps.documentsDir, name), filters: FILTERS[kind] };
        const choice = await (win
          ? deps.dialog.showSaveDialog(win, options)
          : deps.dialog.showSaveDialog(options));
        if (choice.canceled || !choice.filePath) return { saved: false };
        await writeContent(choice.filePath, content);
        log.log('info', 'Saved a file', { kind, path: choice.filePath });
        return { saved: true, path: choice.filePath };
      },
      copyText: async (text) => {
        await deps.clipboard.writeText(text);
      },
      exportProgress: (progress) => {
        const win = deps.currentWindow();
        if (win) sendEvent(win.webContents, 'journalExportProgress', progress);
      },
      // After the answer has left: the services stop (entries in flight stay for the next
      // start), then the app starts again on the journal just chosen.
      restartSoon: () => {
        setImmediate(() => {
          log.log('info', 'Restarting to open the journal chosen in Settings -> Team journal');
          void stop().finally(() => deps.relaunch());
        });
      },
    }),
    { isTrustedSender: isAppTopFrame(APP_ORIGIN), log, databaseFile: services.report.store.file },
  );
  const unregister = await registerBridgeWithElectron(bridge);
  let stopped: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopped ??= (async () => {
      unregister();
      await services.close();
    })();
    return stopped;
  }
  return { services, stop };
}
