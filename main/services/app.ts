// Everything the screens call, wired once: the database, the keychain, the embedded sandbox,
// and the use cases. Electron-free, so it runs for real in Node tests; main/index.ts only
// hands it a data folder and the keychain, and the bridge hands its methods to the renderer.

import { join } from 'node:path';

import type { KeySize } from '../keys';
import type { KeyMaterial } from '../keys/material';
import { silentLogger, type Logger } from '../log';
import type { Sandbox } from '../sandbox';
import type { SecretStore, SecretStoreStatus } from '../secrets';
import { type Db, type Store } from '../store/sqlite/database';
import type { AbsentJournal } from '../store/sqlite/journal-file';
import type { JournalEntry, JournalPort } from '../store/journal/port';
import { Profiles } from '../store/sqlite/profiles';
import { ActionPath } from './action/path';
import { BackupService } from './backups';
import { openDeskStore } from './desk-store';
import { supportBundle } from './support-bundle';
import { BatchService } from './batch/batch';
import { ReconcileService } from './reconcile/reconcile';
import { CardService } from './cards';
import { CallbackService } from './callbacks';
import { Connections, defaultClientFactory } from './connection';
import { JournalService } from './journal';
import { KeyService } from './keys';
import { OrderService, type OrderServiceOptions } from './orders/orders';
import { registerWithSandbox } from './embedded-sandbox';
import { PendingKeys } from './pending-keys';
import { PayLinkService } from './paylinks';
import { PayoutService } from './payouts';
import { ProfileService } from './profiles';
import { RecurringService } from './recurring';
import { openJournalAtStart, type StartupJournal } from './team/journal-at-start';
import { TeamSettingsService } from './team/team-settings';
import type { TeamOpenOptions } from '../store/postgres/connect';
import { TeamProfiles } from './team/profiles';
import { TeamUploadService } from './team/upload';
import { TrustedCa, type TrustedCaView } from './trusted-ca';
import { inFlightNow } from './in-flight-now';
import type { InFlightNow } from '../update/policy';
import { reportAndSandbox, type StartupReport } from './start-report';

export type { StartupReport } from './start-report';

export interface StartOptions {
  dataDir: string;
  secrets: SecretStore;
  /** Who is at the desk: the OS user, recorded with every journal entry. */
  operator: string;
  log?: Logger;
  wait?: OrderServiceOptions['wait'];
  onEntryChanged?: (entry: JournalEntry) => void;
  /** How long the embedded sandbox keeps orders processing (2 s by default). */
  sandboxDelayMs?: number;
  /** Key size for the embedded sandbox's own key; small so the first start takes seconds. */
  sandboxKeyBits?: KeySize;
  /**
   * Makes the embedded sandbox's key (node:crypto on libuv's pool by default). Tests hold the
   * key it makes to see what waits for it.
   */
  makeSandboxKey?: (bits: number) => Promise<KeyMaterial>;
  /**
   * The journal to run on: a team's PostgreSQL (PgJournal, opened from the saved team
   * settings). Absent: this desk's SQLite. Whoever opened it closes it after close().
   */
  journal?: JournalPort;
  /** Timeouts of the team journal's connection (tests shorten them). */
  team?: TeamOpenOptions;
  /** 'off': no automatic backup (tests that count files); Settings can still back up. */
  backups?: 'off';
  /** Time between automatic backups (4 hours by default). */
  backupEveryMs?: number;
  /** Time from start to its automatic backup (15 s by default). */
  firstBackupAfterMs?: number;
  /**
   * The keychain check of this start: the desktop bounds it (KeychainCheck) and shows the wait
   * in its window. Absent: secrets.probe(), unbounded, for tests and the harness.
   */
  probeKeychain?: () => Promise<SecretStoreStatus>;
  /** Told each step of the start, in a few words, for the window to show. */
  onStep?: (step: string) => void;
  /**
   * Screenshots only: the embedded sandbox's port on a first start (the app lets the OS pick a
   * free one), the action ids and the key Keys -> Generate attaches (a test-only one), so that
   * a second run of `npm run screenshots` draws the same pictures.
   */
  sandboxPort?: number;
  newActionId?: () => string;
  makeKey?: (bits: KeySize) => Promise<KeyMaterial>;
}

export interface NetworkSettings {
  view(): TrustedCaView;
  /** Trusts the PEM's CA certificates from the next connection on; refuses anything else. */
  save(pem: string): TrustedCaView;
  clear(): TrustedCaView;
}

export class PaydeskServices {
  private constructor(
    readonly db: Db,
    readonly profiles: ProfileService,
    readonly keys: KeyService,
    readonly orders: OrderService,
    readonly payouts: PayoutService,
    readonly cards: CardService,
    readonly recurring: RecurringService,
    readonly payLinks: PayLinkService,
    readonly journal: JournalService,
    readonly callbacks: CallbackService,
    readonly batches: BatchService,
    readonly report: StartupReport,
    /** Resolves when the entries left in flight by the last run have been reconciled. */
    readonly reconciled: Promise<JournalEntry[]>,
    private readonly sandbox: Sandbox | undefined,
    private readonly store: Store,
    /** The journal every service writes: `port.store` says which ('sqlite' or 'postgres'). */
    readonly port: JournalPort,
    /** The journal chosen at start (local SQLite or the team's PostgreSQL) and who writes it. */
    readonly journalAtStart: StartupJournal,
    /** Settings -> Team journal. */
    readonly teamSettings: TeamSettingsService,
    /** Team mode's shared profiles and the one-time upload (docs/team.md). */
    readonly team: { profiles: TeamProfiles; upload: TeamUploadService },
    /** The Sandbox profile's key when start left it being made: close waits for it. */
    private readonly pendingKeys: PendingKeys,
    /** Settings -> Backups, and the automatic backups. */
    readonly backups: BackupService,
    /** Set when the journal Paydesk had was missing or empty at start: the app waits for a choice. */
    readonly absentJournal: AbsentJournal | undefined,
    /** The support bundle (support-bundle.ts), redacted with the keychain's own secrets. */
    readonly support: { bundle(app: { version: string; logFile?: string }): Promise<string> },
    /** Settings -> Network: the CA trusted besides the built-in roots. */
    readonly network: NetworkSettings,
    /** What a restart would interrupt now (Settings -> Updates waits for nothing of it). */
    readonly inFlightNow: () => Promise<InFlightNow>,
    /** Reconciliation runs: the journal's entries asked about again at the gateway. */
    readonly reconcile: ReconcileService,
  ) {}

  /**
   * The built-in sandbox while it runs: for training, and for the screenshots that change its
   * orders behind the desk's back (Sandbox.alterOrder). Never a real gateway.
   */
  get builtInSandbox(): Sandbox | undefined {
    return this.sandbox;
  }

  static async start(options: StartOptions): Promise<PaydeskServices> {
    const log = options.log ?? silentLogger;
    const step = options.onStep ?? (() => undefined);
    const file = join(options.dataDir, 'paydesk.sqlite');
    step('Opening the database');
    const opening = await openDeskStore(options.dataDir, file, log, options.secrets);
    const store = opening.store;
    const db = store.db;
    const storeReport: StartupReport['store'] = {
      ...(store.fault
        ? {
            writable: false as const,
            ...store.fault,
            ...(opening.latestBackup ? { latestBackup: opening.latestBackup } : {}),
          }
        : { writable: true as const, file: store.file }),
      ...(opening.restored ? { restored: opening.restored } : {}),
    };
    if (store.fault) {
      log.log('error', 'The database cannot be written; Paydesk opens read-only', {
        code: store.fault.code,
        file: store.fault.file,
      });
    }
    // The team's journal when this desk uses one (team.json), never the local one instead.
    step('Opening the journal');
    const opened = await openJournalAtStart({
      dataDir: options.dataDir,
      db,
      secrets: options.secrets,
      operator: options.operator,
      log,
      ...(options.team ? { team: options.team } : {}),
    });
    const profiles = new Profiles(db);
    const journal = options.journal ?? opened.port;
    // The Sandbox profile's key while start leaves it being made: every use of the key waits.
    const pendingKeys = new PendingKeys();
    // Settings -> Network's CA, read when each client is made (a change drops them all).
    const trustedCa = new TrustedCa(options.dataDir, (message) =>
      log.log('error', 'The trusted CA file cannot be used; the built-in roots only', { message }),
    );
    const connections = new Connections(
      profiles,
      options.secrets,
      (credentials) => {
        const ca = trustedCa.ca();
        return defaultClientFactory(ca ? { ca } : {})(credentials);
      },
      pendingKeys,
    );
    const network: NetworkSettings = {
      view: () => trustedCa.view(),
      save: (pem) => {
        const view = trustedCa.save(pem);
        connections.forgetAll();
        log.log('info', 'Settings -> Network: a trusted CA was saved', {
          certificates: view.certificates.map((c) => c.fingerprint).join(' '),
        });
        return view;
      },
      clear: () => {
        const view = trustedCa.clear();
        connections.forgetAll();
        log.log('info', 'Settings -> Network: the trusted CA was removed');
        return view;
      },
    };
    // Off until the desk joins a team (TeamProfiles.join with its open team journal).
    const teamProfiles = new TeamProfiles(db, profiles, options.secrets, (id) =>
      connections.forget(id),
    );
    if (opened.team) await joinTeamProfiles(teamProfiles, opened, log);
    else if (opened.session.journal === 'local' && !store.fault) leftTeam(teamProfiles, log);
    // Known once started, below; the key service's callback reads it when a key changes.
    let sandbox: Sandbox | undefined = undefined;
    const keys = new KeyService(
      profiles,
      options.secrets,
      async (profile, publicKeyPem) => {
        // The old key's client and parsed key go now, not at the next operation.
        connections.forget(profile.id);
        if (profile.embedded && sandbox) {
          await registerWithSandbox(sandbox, options.secrets, profile, publicKeyPem).catch(
            (error: unknown) => log.log('error', 'The sandbox did not take the new key', { error }),
          );
        }
      },
      teamProfiles,
      pendingKeys,
      options.makeKey,
    );
    // One action path for every operation that moves money or registers something.
    const actions = new ActionPath(journal, connections, {
      operator: options.operator,
      ...(options.wait ? { wait: options.wait } : {}),
      ...(options.newActionId ? { newActionId: options.newActionId } : {}),
      onEntryChanged: (entry) => {
        log.log('info', 'journal entry changed', {
          clientOrderId: entry.clientOrderId,
          operation: entry.operation,
          state: entry.state,
          status: entry.status,
        });
        options.onEntryChanged?.(entry);
      },
    });
    const orders = new OrderService(db, journal, connections, actions, (id) => profiles.nameOf(id));
    const cards = new CardService(actions, connections);

    step('Checking the keychain');
    const probe = await (options.probeKeychain ?? (() => options.secrets.probe()))();
    const { report, sandbox: started } = await reportAndSandbox({
      options,
      log,
      step,
      probe,
      store: storeReport,
      journal: opened.report,
      profiles,
      teamProfiles,
      keys,
    });
    sandbox = started;
    // Reconciling writes the journal: a read-only start leaves every entry as it is, for the next
    // start. A team journal is reconciled whatever this desk's file can do: its entries are the
    // team's, and a desk that crashed mid-action is settled by whichever desk starts next.
    const journalWritable = journal.store === 'postgres' || !store.fault;
    const reconciled =
      probe.usable && journalWritable
        ? actions.reconcile().catch((error: unknown) => {
            // The journal could not be read (the team's server away): the next start asks again.
            log.log('error', 'The journal could not be reconciled at start', { error });
            return [] as JournalEntry[];
          })
        : Promise.resolve([]);
    // Batches that were running when the last process ended show paused and interrupted; the
    // reconcile above settles their rows in flight, and the clerk resumes them.
    const batches = new BatchService(db, journal, profiles, orders, { operator: options.operator });
    if (!store.fault) batches.recover();
    // Reconciliation runs left running by the last process go on (only status is asked); without
    // the keychain they wait for the next start, as the entries in flight do.
    const reconcile = new ReconcileService(db, journal, profiles, connections, {
      operator: options.operator,
    });
    if (!store.fault && probe.usable) reconcile.recover();
    const backups = new BackupService({
      db,
      dataDir: options.dataDir,
      log,
      session: () => opened.session.get(),
      ...(store.fault ? { fault: store.fault } : {}),
      ...(opened.team ? { teamWhere: opened.team.where } : {}),
      ...(options.backupEveryMs ? { everyMs: options.backupEveryMs } : {}),
      ...(options.firstBackupAfterMs !== undefined
        ? { firstAfterMs: options.firstBackupAfterMs }
        : {}),
    });
    // What a backup cut short by a crash or a power cut left, off the start's path.
    void backups.sweepLeftovers();
    if (options.backups !== 'off') backups.startSchedule();
    const teamSettings = new TeamSettingsService(
      options.dataDir,
      options.secrets,
      options.team ?? {},
      () => teamProfiles.mirror.keptFromTeam(),
    );
    return new PaydeskServices(
      db,
      new ProfileService(profiles, options.secrets, connections, teamProfiles, pendingKeys),
      keys,
      orders,
      new PayoutService(actions),
      cards,
      new RecurringService(actions, cards),
      new PayLinkService(actions),
      new JournalService(journal, (id) => profiles.nameOf(id)),
      new CallbackService(profiles, options.secrets, connections),
      batches,
      report,
      reconciled,
      sandbox,
      store,
      journal,
      opened,
      teamSettings,
      { profiles: teamProfiles, upload: new TeamUploadService(db, teamProfiles) },
      pendingKeys,
      backups,
      opening.absent,
      {
        bundle: (app) =>
          supportBundle(
            {
              databaseFile: file,
              profiles,
              secrets: options.secrets,
              backups,
              teamSettings,
              report,
            },
            app,
          ),
      },
      network,
      () => inFlightNow(actions, journal, batches),
      reconcile,
    );
  }

  /** `onStep` is told what is being finished, for the window to say while Paydesk quits. */
  async close(onStep: (step: string) => void = () => undefined): Promise<void> {
    // A key still being made is attached first (or fails): never half-kept by a closed database.
    onStep('Finishing the RSA key being made');
    await this.pendingKeys.allSettled();
    onStep('Settling the operations left from the last run');
    await this.reconciled.catch(() => undefined);
    onStep('Stopping the reconciliation: the status requests under way get their answer');
    await this.reconcile.close(); // still running: the next start goes on with it
    onStep("Pausing the batch: the rows being sent get the gateway's answer");
    await this.batches.close(); // paused: the rows being sent reach their end first
    onStep(
      'Recording the answers of operations being sent (any left are asked about at the next start)',
    );
    await this.orders.close(); // the one action path: every follow-up stops
    onStep('Stopping the built-in sandbox');
    await this.sandbox?.close();
    onStep('Closing the journal');
    await this.journalAtStart.session.close();
    await this.backups.close(); // a backup under way stops and lets go before the database closes
    this.store.close();
  }
}

/**
 * A desk that left its team (Settings -> Stop using it, then this restart on its own journal)
 * gets back what it had: its own profiles listed again under their names, the team's copies set
 * aside with this desk's keys for them (team-mirror.ts). Done at the first local start, so a
 * team.json removed by hand leaves the desk the same way.
 */
function leftTeam(teamProfiles: TeamProfiles, log: Logger): void {
  if (!teamProfiles.mirror.hasTeamRows()) return;
  const left = teamProfiles.leave();
  log.log('info', "Left the team: this desk's own profiles are back", {
    restored: left.restored.length,
    keptFromTeam: left.keptFromTeam.length,
  });
}

/**
 * A desk on the team journal lists the team's shared profiles. With the database reachable the
 * shared copy is read before the first screen; away, the desk joins anyway and works from its
 * last copy, refreshed when the database answers (TeamProfiles.refreshIfStale), and with it the
 * login's groups: a desk started while the database was away learns them then.
 */
async function joinTeamProfiles(
  teamProfiles: TeamProfiles,
  opened: StartupJournal,
  log: Logger,
): Promise<void> {
  const team = opened.team;
  if (!team) return;
  // Who the login is, as start's check just found it: not asked of the database again.
  const session = opened.atStart ?? (await opened.session.get());
  const link = {
    pool: team.pool,
    login: session.login,
    roles: session.groups,
    desk: team.desk,
    where: team.where,
    whoAmI: () => opened.session.get(),
  };
  const joined = teamProfiles
    .join(link, { whoKnown: session.reachable })
    .catch((error: unknown) => {
      log.log(
        'error',
        "The team's shared profiles could not be read; this desk shows its last copy",
        {
          where: team.where,
          error,
        },
      );
    });
  if (session.reachable) await joined;
}
