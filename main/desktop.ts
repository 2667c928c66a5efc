// The desktop side of the services: where the data lives (the user data folder), who is at the
// desk (the OS user), the keychain, the save dialog, the folder picker and the clipboard, and
// the bridge that offers it all to the window. main/index.ts calls startDesktop() once the app
// is ready, and opens the window at once: the bridge is registered before the services start,
// lifecycle.* answers from the first moment (what the start is doing, the keychain's wait), and
// every other call waits for the services.

import { userInfo } from 'node:os';
import { join } from 'node:path';

import type { BrowserWindow, Clipboard, Dialog, OpenDialogOptions } from 'electron';

import { allCalls } from '../common/contract';
import {
  createBridge,
  isAppTopFrame,
  registerBridgeWithElectron,
  sendEvent,
  type Handlers,
} from './bridge';
import { writeContent } from './files';
import { createHandlers } from './handlers';
import { Lifecycle, READY } from './lifecycle';
import { fileLogger, type Logger } from './log';
import { APP_ORIGIN } from './protocol';
import { CachedSecretStore, KeytarSecretStore } from './secrets';
import { PaydeskServices } from './services/app';
import { ServiceError } from './services/errors';
import { journalRowView } from './services/journal';
import { KEYCHAIN_WAITING_MESSAGE, KeychainCheck } from './services/keychain-check';
import { electronUpdater } from './update/electron';
import { describeFeed, readFeedChoice } from './update/feed';
import { Updates } from './update/updates';

export interface DesktopDeps {
  userDataDir: string;
  documentsDir: string;
  version: string;
  dialog: Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;
  clipboard: Pick<Clipboard, 'writeText'>;
  /** The window events go to; undefined while none is open. */
  currentWindow: () => BrowserWindow | undefined;
  /**
   * Starts Paydesk again (app.relaunch, then app.exit): the services open their journal once, at
   * start, so switching to or from the team journal is a restart, after the services stopped.
   */
  relaunch: () => void;
  /** How long the keychain check may take before the window offers its choices. */
  keychainBoundMs?: number;
  /** Settings -> Updates: checked only by a packaged app (app.isPackaged). */
  isPackaged?: boolean;
  /** Prints a page to PDF (main/print-pdf.ts); absent, printing says it needs the desktop app. */
  printPdf?: (html: string) => Promise<Uint8Array>;
}

export interface Desktop {
  /** Where the start or the shutdown is; the window shows it. */
  lifecycle: Lifecycle;
  /** The started services; rejects when they could not start. */
  ready: Promise<PaydeskServices>;
  /** Stops the services (after their start, if it is still running); once. */
  stop(): Promise<void>;
}

const FILTERS = {
  pem: [{ name: 'PEM public key', extensions: ['pem'] }],
  csv: [{ name: 'CSV spreadsheet', extensions: ['csv'] }],
  sql: [{ name: 'SQL script', extensions: ['sql'] }],
  json: [{ name: 'Support bundle (JSON)', extensions: ['json'] }],
  pdf: [{ name: 'PDF document', extensions: ['pdf'] }],
};

const CLOSING = 'Paydesk is closing; start it again once it has.';

export async function startDesktop(deps: DesktopDeps): Promise<Desktop> {
  const logFile = join(deps.userDataDir, 'paydesk.log');
  const log = fileLogger(logFile);
  const operator = userInfo().username;
  // Each secret read from the keychain once, then kept: Paydesk is its accounts' only writer.
  const secrets = new CachedSecretStore(new KeytarSecretStore());
  const lifecycle = new Lifecycle();
  lifecycle.onChange((state) => {
    const win = deps.currentWindow();
    if (win) sendEvent(win.webContents, 'lifecycle', state);
  });
  const keychain = new KeychainCheck(
    secrets,
    {
      checking: () => lifecycle.step('Checking the keychain'),
      waiting: () => {
        log.log('warn', 'The keychain has not answered within its bound; the window asks');
        lifecycle.set({
          phase: 'keychain-waiting',
          step: 'Waiting for the keychain',
          message: KEYCHAIN_WAITING_MESSAGE,
        });
      },
    },
    deps.keychainBoundMs,
  );
  let stopping = false;
  let stopped: Promise<void> | undefined;

  const ready = PaydeskServices.start({
    dataDir: deps.userDataDir,
    secrets,
    operator,
    log,
    probeKeychain: () => keychain.run(),
    onStep: (step) => lifecycle.step(step),
    onEntryChanged: (entry) => {
      const win = deps.currentWindow();
      if (win) sendEvent(win.webContents, 'journalChanged', journalRowView(entry));
    },
  });
  const updates = await startUpdates(deps, ready, log);
  const handlers = ready.then((services) =>
    createHandlers(services, {
      updates,
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
      chooseFolder: async (current) => {
        const win = deps.currentWindow();
        const options: OpenDialogOptions = {
          title: 'Folder for backups',
          buttonLabel: 'Use this folder',
          defaultPath: current,
          // A new folder can be made in the picker (macOS) or by naming it (Windows).
          properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
        };
        const choice = await (win
          ? deps.dialog.showOpenDialog(win, options)
          : deps.dialog.showOpenDialog(options));
        return choice.canceled ? undefined : choice.filePaths[0];
      },
      copyText: async (text) => {
        await deps.clipboard.writeText(text);
      },
      ...(deps.printPdf ? { printPdf: deps.printPdf } : {}),
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
  );
  // The window's calls before the start ended are answered once it has; a failed start is
  // main/index.ts's to say (it exits), so this copy of the rejection is only observed.
  handlers.catch(() => undefined);
  ready.then(
    () => lifecycle.set(READY),
    (error: unknown) => {
      log.log('error', 'Paydesk could not start', { error });
      lifecycle.set({
        phase: 'failed',
        step: 'Paydesk could not start',
        message: error instanceof Error ? error.message : String(error),
      });
    },
  );

  const lifecycleHandlers: Handlers['lifecycle'] = {
    state: () => lifecycle.current,
    retryKeychain: () => {
      keychain.retry();
      return lifecycle.current;
    },
    skipKeychain: () => {
      log.log('warn', 'The person chose to start without the keychain');
      keychain.skip();
      return lifecycle.current;
    },
  };
  const bridge = createBridge(
    afterStart(handlers, lifecycleHandlers, () => stopping),
    {
      isTrustedSender: isAppTopFrame(APP_ORIGIN),
      log,
      databaseFile: join(deps.userDataDir, 'paydesk.sqlite'),
    },
  );
  const unregister = await registerBridgeWithElectron(bridge);

  function stop(): Promise<void> {
    updates.stop();
    stopped ??= stopServices(ready, keychain, lifecycle, log, () => {
      stopping = true;
    }).finally(unregister);
    return stopped;
  }
  return { lifecycle, ready, stop };
}

/**
 * Settings -> Updates: the first check once the services have started (so a check never slows
 * the start), then daily; the window is told each change.
 */
async function startUpdates(
  deps: DesktopDeps,
  ready: Promise<PaydeskServices>,
  log: Logger,
): Promise<Updates> {
  const choice = readFeedChoice(deps.userDataDir);
  const made = await electronUpdater(deps.isPackaged ?? false, choice).catch((error: unknown) => ({
    updater: undefined,
    offReason: `The updater could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
  }));
  if (!made.updater) log.log('info', 'Updates are off', { reason: made.offReason });
  const updates = new Updates({
    running: deps.version,
    feed: describeFeed(choice),
    updater: made.updater,
    ...(made.updater ? {} : { offReason: made.offReason }),
    inFlightNow: async () => (await ready).inFlightNow(),
    log: (level, message, fields) => log.log(level, message, fields),
    onChanged: (view) => {
      const win = deps.currentWindow();
      if (win) sendEvent(win.webContents, 'updateChanged', view);
    },
  });
  ready.then(
    () => updates.start(),
    () => undefined,
  );
  return updates;
}

async function stopServices(
  ready: Promise<PaydeskServices>,
  keychain: KeychainCheck,
  lifecycle: Lifecycle,
  log: Logger,
  refuseCalls: () => void,
): Promise<void> {
  refuseCalls();
  lifecycle.set({ phase: 'stopping', step: 'Closing Paydesk' });
  // A start still waiting on the keychain goes on without it: there is nothing left to ask for.
  if (!keychain.isSettled) keychain.skip();
  const services = await ready.catch(() => undefined);
  if (!services) return;
  await services.close((step) => {
    log.log('info', 'Closing', { step });
    lifecycle.set({ phase: 'stopping', step });
  });
}

/**
 * Every call of the contract, answered once the services have started; lifecycle.* at once. A
 * call that arrives while Paydesk is closing is refused with a sentence, never half-served.
 */
function afterStart(
  started: Promise<Handlers>,
  lifecycle: Handlers['lifecycle'],
  isStopping: () => boolean,
): Handlers {
  const handlers: Record<string, Record<string, (request: unknown) => Promise<unknown>>> = {};
  for (const [namespace, method] of allCalls()) {
    (handlers[namespace] ??= {})[method] = async (request) => {
      if (isStopping()) throw new ServiceError('NOT_ALLOWED', CLOSING);
      const ready = (await started)[namespace] as Record<string, (request: unknown) => unknown>;
      return ready[method]?.(request);
    };
  }
  return { ...(handlers as unknown as Handlers), lifecycle };
}
