// What each call of the contract does: a thin mapping onto the services. Desktop things (the
// save dialog, the clipboard) come in as functions, so the same handlers run in Electron and in
// the browser test harness.

import type { Handlers } from './bridge';
import type { PaydeskServices } from './services/app';
import { ServiceError } from './services/errors';
import { totalsPathOf, writeContent, type FileContent } from './files';
import type { JournalTotals } from './store/journal/totals';
import { READY } from './lifecycle';
import type { Updates, UpdateView } from './update/updates';
import type { ExportProgress } from './services/journal';
import type { JournalEntry } from './store/journal/types';
import { ReportService } from './services/reports/reports';

export interface DesktopDeps {
  version: string;
  operator: string;
  /** Asks the user where to save, then writes; `saved: false` when they cancel. */
  saveFile(
    suggestedName: string,
    content: FileContent,
    kind: 'pem' | 'csv' | 'sql' | 'json' | 'pdf',
  ): Promise<{ saved: boolean; path?: string }>;
  /**
   * Asks the person for a folder with the system's picker, opening at `current`; undefined when
   * they cancel. Absent (no desktop): a folder is typed.
   */
  chooseFolder?(current: string): Promise<string | undefined>;
  /** The app's log file, for the support bundle's last days of it. */
  logFile?: string;
  copyText(text: string): Promise<void> | void;
  /** Told how far a CSV export has come (the window shows it). */
  exportProgress?(progress: ExportProgress): void;
  /**
   * Restarts the services once this answer has left (Electron: relaunch the app; the harness:
   * stop and start them). Absent: the person quits and starts Paydesk again.
   */
  restartSoon?(): void;
  /** Prints a page's HTML to PDF (Electron's printToPDF, main/print-pdf.ts; the harness's Chromium). */
  printPdf?(html: string): Promise<Uint8Array>;
  /** Settings -> Updates (main/update/updates.ts). Absent: updates are off (the harness, npm start). */
  updates?: Pick<Updates, 'view' | 'check' | 'install'>;
}

const UPDATES_OFF: UpdateView = {
  running: '',
  feed: 'none',
  phase: 'off',
  offered: null,
  percent: null,
  checkedAt: null,
  message: 'Updates are checked only by an installed Paydesk.',
  install: { allowed: false, reason: 'Updates are checked only by an installed Paydesk.' },
};

const RESTARTING = 'Paydesk restarts now to open the journal you chose.';
const RESTART_BY_HAND = 'Quit Paydesk and start it again to open the journal you chose.';
const RESTORING =
  'Paydesk restarts now: it stops writing, keeps the current file aside, restores the backup and asks the gateway about every entry that was in flight.';
const RESTORE_BY_HAND =
  'Quit Paydesk and start it again: the backup is restored at the start, the current file kept aside.';
/** Choose folder… where there is no system picker (the browser harness, npm run preview). */
export const NO_FOLDER_PICKER =
  'Choosing a folder needs the desktop app; type the folder’s whole path instead.';
const NEW_JOURNAL = 'Paydesk restarts now with a new, empty journal.';
const NEW_JOURNAL_BY_HAND = 'Quit Paydesk and start it again to begin a new, empty journal.';

export function createHandlers(services: PaydeskServices, deps: DesktopDeps): Handlers {
  const requireKey = async (profileId: string) => {
    const key = await services.keys.current(profileId);
    if (!key)
      throw new ServiceError(
        'NOT_ALLOWED',
        'This profile has no RSA key yet; generate or import one first.',
      );
    return key;
  };
  const restart = (restarting = RESTARTING, byHand = RESTART_BY_HAND) => {
    if (!deps.restartSoon) return { restarting: false, message: byHand };
    deps.restartSoon();
    return { restarting: true, message: restarting };
  };
  const actionResult = (r: { entry: JournalEntry; replayed: boolean }) => ({
    entry: services.journal.row(r.entry),
    replayed: r.replayed,
  });

  // Reports read whichever journal the desk writes (SQLite or the team's), as it is now.
  const reports = new ReportService(() => services.port);

  return {
    // Served here once the services run; the desktop answers these itself before then.
    lifecycle: { state: () => READY, retryKeychain: () => READY, skipKeychain: () => READY },
    updates: {
      state: () => deps.updates?.view() ?? { ...UPDATES_OFF, running: deps.version },
      check: async () => {
        if (!deps.updates) return { ...UPDATES_OFF, running: deps.version };
        await deps.updates.check();
        return deps.updates.view();
      },
      install: () =>
        deps.updates?.install() ?? { installing: false as const, reason: UPDATES_OFF.message! },
    },
    network: {
      trustedCa: () => services.network.view(),
      saveTrustedCa: ({ pem }) => services.network.save(pem),
      clearTrustedCa: () => services.network.clear(),
    },
    app: {
      status: () => {
        const { report } = services;
        return {
          version: deps.version,
          operator: deps.operator,
          keychain: report.keychain.usable
            ? { usable: true }
            : { usable: false, message: report.keychain.message },
          store: {
            ...(report.store.writable
              ? { writable: true, file: report.store.file }
              : {
                  writable: false,
                  code: report.store.code,
                  message: report.store.message,
                  file: report.store.file,
                  ...(report.store.latestBackup ? { latestBackup: report.store.latestBackup } : {}),
                }),
            ...(report.store.restored ? { restored: report.store.restored } : {}),
          },
          firstRun: report.firstRun,
          journal: report.journal,
          sandbox: report.sandbox.running
            ? {
                running: true,
                baseUrl: report.sandbox.baseUrl,
                profileId: report.sandbox.profileId,
                ...(report.sandbox.message ? { message: report.sandbox.message } : {}),
              }
            : { running: false, message: report.sandbox.message },
        };
      },
    },
    profiles: {
      list: () => services.profiles.list(),
      create: (req) => services.profiles.create(req),
      update: ({ id, profile }) => services.profiles.update(id, profile),
      remove: async ({ id }) => {
        await services.profiles.remove(id);
        return null;
      },
      testConnection: ({ id }) => services.profiles.testConnection(id),
    },
    keys: {
      current: ({ profileId }) => services.keys.current(profileId),
      generate: ({ profileId, bits }) => services.keys.generate(profileId, bits),
      import: ({ profileId, pem, passphrase }) => services.keys.import(profileId, pem, passphrase),
      checkImport: ({ profileId, pem, passphrase }) =>
        services.keys.checkImport(profileId, pem, passphrase),
      savePublicKey: async ({ profileId }) => {
        const key = await requireKey(profileId);
        return deps.saveFile('public_key.pem', key.publicKeySpkiPem, 'pem');
      },
      copyPublicKey: async ({ profileId }) => {
        await deps.copyText((await requireKey(profileId)).publicKeySpkiPem);
        return null;
      },
    },
    orders: {
      lookup: ({ profileId, orderid, client_orderid }) =>
        services.orders.lookup(profileId, {
          ...(orderid ? { orderid } : {}),
          ...(client_orderid ? { client_orderid } : {}),
        }),
      recent: ({ profileId, query }) => services.orders.recentOrders(profileId, query),
      openAction: () => services.orders.openAction(),
      copyThreeDsAddress: async ({ profileId, orderid }) => {
        await deps.copyText(await services.orders.threeDsAddress(profileId, orderid));
        return null;
      },
      capture: async (req) => actionResult(await services.orders.capture(req)),
      void: async (req) => actionResult(await services.orders.void(req)),
      refund: async (req) => actionResult(await services.orders.refund(req)),
      cancel: async (req) => actionResult(await services.orders.cancel(req)),
    },
    payouts: {
      send: async (req) => actionResult(await services.payouts.send(req)),
      check: async (req) => actionResult(await services.payouts.check(req)),
      toPay: ({ profileId }) => services.payouts.toPay(profileId),
      pay: async (req) => actionResult(await services.payouts.pay(req)),
    },
    cards: {
      save: async (req) => actionResult(await services.cards.saveCard(req)),
      info: ({ profileId, cardRefId }) => services.cards.info(profileId, cardRefId),
      rebill: async (req) => actionResult(await services.cards.rebill(req)),
    },
    recurring: {
      preview: (req) => services.recurring.preview(req),
      create: async (req) => {
        const created = await services.recurring.create(req);
        return { ...actionResult(created), cardRefId: created.cardRefId };
      },
    },
    payLinks: {
      create: async (req) => actionResult(await services.payLinks.create(req)),
      list: ({ profileId }) => services.payLinks.list(profileId),
      copy: async ({ profileId, clientOrderId }) => {
        await deps.copyText(await services.payLinks.linkOf(profileId, clientOrderId));
        return null;
      },
    },
    journal: {
      search: ({ filter, offset, limit }) => services.journal.search(filter, offset, limit),
      totals: ({ filter }) => services.journal.totals(filter),
      entry: ({ clientOrderId }) => services.journal.entry(clientOrderId),
      settleByHand: async ({ clientOrderId, outcome, reason }) =>
        services.journal.row(await services.orders.settleByHand(clientOrderId, outcome, reason)),
      exportCsv: async ({ filter }) => {
        const stamp = new Date().toISOString().slice(0, 10);
        // Read and written in chunks once the file is chosen (nothing is read if cancelled); the
        // result says how many entries the file holds, for the notice.
        let count = 0;
        let totals: JournalTotals | undefined;
        // What the export can start before its file is chosen starts now, while the person is
        // in the dialog, and is let go once the dialog has closed (the export used it, or the
        // person cancelled).
        const prepared = services.journal.prepareCsv();
        let saved: Awaited<ReturnType<DesktopDeps['saveFile']>>;
        try {
          saved = await deps.saveFile(
            `paydesk-journal-${stamp}.csv`,
            () =>
              services.journal.csvChunks(
                filter,
                (progress) => {
                  count = progress.done;
                  deps.exportProgress?.(progress);
                },
                (t) => (totals = t),
                prepared,
              ),
            'csv',
          );
        } finally {
          prepared.end();
        }
        if (!saved.saved) return { ...saved, count: 0 };
        // The totals of the lines written, in a file of their own beside the export (its name
        // with .totals.csv): the export stays one table for a program to read.
        if (saved.path && totals) {
          const totalsPath = totalsPathOf(saved.path);
          await writeContent(totalsPath, await services.journal.totalsCsv(totals));
          return { ...saved, count, totalsPath };
        }
        return { ...saved, count };
      },
    },
    batches: {
      load: ({ profileId, fileName, text, concurrency }) =>
        services.batches.load(profileId, fileName, text, concurrency),
      list: () => services.batches.list(),
      get: ({ batchId }) => services.batches.get(batchId),
      rows: ({ batchId }) => services.batches.rows(batchId),
      start: ({ batchId, confirmation }) => services.batches.start(batchId, confirmation),
      pause: ({ batchId }) => services.batches.pause(batchId),
      cancel: ({ batchId }) => services.batches.cancel(batchId),
      saveResult: async ({ batchId }) => {
        const batch = services.batches.get(batchId);
        const name = batch.fileName.replace(/\.csv$/i, '').replace(/[^\w.-]+/g, '-');
        return deps.saveFile(
          `${name}-result.csv`,
          await services.batches.resultCsv(batchId),
          'csv',
        );
      },
    },
    session: {
      get: () => services.journalAtStart.session.get(),
    },
    team: {
      settings: () => services.teamSettings.current(),
      test: (req) => services.teamSettings.test(req),
      use: async (req) => {
        await services.teamSettings.use(req);
        return restart();
      },
      stop: async () => {
        await services.teamSettings.stop();
        return restart();
      },
      saveSetupSql: async () => {
        // The schema's text, loaded only when asked for (it is PostgreSQL's, not the desk's).
        const { teamSql } = await import('./store/postgres/schema');
        return deps.saveFile('team.sql', teamSql(), 'sql');
      },
      refreshProfiles: async () => {
        const report = await services.team.profiles.refresh();
        return { shared: report.shared, setAside: report.setAside };
      },
      planLocalJournalUpload: ({ profileMap }) => services.team.upload.plan(profileMap),
      uploadLocalJournal: ({ profileMap }) =>
        services.team.upload.uploadLocalJournal(profileMap ? { profileMap } : {}),
    },
    backups: {
      status: () => services.backups.status(),
      backUpNow: () => services.backups.backupNow(),
      setFolder: ({ folder }) => services.backups.setFolder(folder),
      chooseFolder: () =>
        services.backups.chooseFolder((current) => {
          if (!deps.chooseFolder) throw new ServiceError('INPUT', NO_FOLDER_PICKER, 'folder');
          return deps.chooseFolder(current);
        }),
      restore: async ({ name }) => {
        await services.backups.chooseRestore(name);
        return restart(RESTORING, RESTORE_BY_HAND);
      },
      startNewJournal: async () => {
        await services.backups.chooseNewJournal(services.absentJournal);
        return restart(NEW_JOURNAL, NEW_JOURNAL_BY_HAND);
      },
    },
    support: {
      saveBundle: async () => {
        const stamp = new Date().toISOString().slice(0, 10);
        const bundle = await services.support.bundle({
          version: deps.version,
          ...(deps.logFile ? { logFile: deps.logFile } : {}),
        });
        return deps.saveFile(`paydesk-support-${stamp}.json`, bundle, 'json');
      },
    },
    reports: {
      summary: (request) => reports.summary(request),
      exportCsv: async (request) =>
        deps.saveFile(
          `paydesk-report-${request.from}-to-${request.to}.csv`,
          await reports.csv(request),
          'csv',
        ),
    },
    reconcile: {
      create: (req) => services.reconcile.create(req),
      list: () => services.reconcile.list(),
      get: ({ runId }) => services.reconcile.view(runId),
      findings: ({ runId }) => services.reconcile.findings(runId),
      pause: ({ runId }) => services.reconcile.pause(runId),
      resume: ({ runId, perSecond, atOnce }) =>
        services.reconcile.resume(
          runId,
          perSecond !== undefined || atOnce !== undefined
            ? {
                perSecond: perSecond ?? services.reconcile.view(runId).perSecond,
                atOnce: atOnce ?? services.reconcile.view(runId).atOnce,
              }
            : undefined,
        ),
      saveCsv: async ({ runId }) =>
        deps.saveFile(
          `paydesk-reconciliation-${runId}.csv`,
          await services.reconcile.csv(runId),
          'csv',
        ),
      savePdf: async ({ runId }) => {
        if (!deps.printPdf)
          throw new ServiceError(
            'INPUT',
            'Printing to PDF needs the desktop app; save the CSV here, or print from Paydesk itself.',
          );
        const html = services.reconcile.html(runId);
        // Printed once the file is chosen: a cancelled dialog prints nothing.
        return deps.saveFile(
          `paydesk-reconciliation-${runId}.pdf`,
          () =>
            (async function* () {
              yield await deps.printPdf!(html);
            })(),
          'pdf',
        );
      },
    },
    tools: {
      checkCallback: ({ profileId, text }) => services.callbacks.check(profileId, text),
    },
  };
}
