// Everything the screens call, wired once: the database, the keychain, the embedded sandbox,
// and the use cases. Electron-free, so it runs for real in Node tests; main/index.ts only
// hands it a data folder and the keychain, and the bridge hands its methods to the renderer.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { generateKeyPair, importPrivateKey, type KeySize } from '../keys';
import { silentLogger, type Logger } from '../log';
import { startSandbox, type Sandbox } from '../sandbox';
import type { SecretStore } from '../secrets';
import { openStore, type Db, type Store, type StoreFault } from '../store/database';
import { Journal, type JournalEntry } from '../store/journal';
import { Profiles, type Profile } from '../store/profiles';
import { ActionPath } from './action-path';
import { BatchService } from './batch';
import { CardService } from './cards';
import { CallbackService } from './callbacks';
import { Connections, defaultClientFactory } from './connection';
import { JournalService } from './journal';
import { KeyService } from './keys';
import { OrderService, type OrderServiceOptions } from './orders';
import { PayLinkService } from './paylinks';
import { PayoutService } from './payouts';
import { ProfileService } from './profiles';
import { RecurringService } from './recurring';
import { TeamProfiles } from './team-profiles';
import { TeamUploadService } from './team-upload';

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
}

export interface StartupReport {
  keychain: { usable: true } | { usable: false; message: string };
  /** A damaged, read-only or unwritable database opens the app read-only, with the reason. */
  store: { writable: true; file: string } | ({ writable: false } & StoreFault);
  firstRun: boolean;
  sandbox:
    { running: true; baseUrl: string; profileId: string } | { running: false; message: string };
}

const SANDBOX_LOGIN = 'paydesk-sandbox';
const SANDBOX_ENDPOINT = '1111';

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
    /** Team mode's shared profiles and the one-time upload (docs/team.md). */
    readonly team: { profiles: TeamProfiles; upload: TeamUploadService },
  ) {}

  static async start(options: StartOptions): Promise<PaydeskServices> {
    const log = options.log ?? silentLogger;
    const store = openStore(join(options.dataDir, 'paydesk.sqlite'));
    const db = store.db;
    const storeReport: StartupReport['store'] = store.fault
      ? { writable: false, ...store.fault }
      : { writable: true, file: store.file };
    if (store.fault) {
      log.log('error', 'The database cannot be written; Paydesk opens read-only', {
        code: store.fault.code,
        file: store.fault.file,
      });
    }
    const profiles = new Profiles(db);
    const journal = new Journal(db);
    const connections = new Connections(profiles, options.secrets, defaultClientFactory());
    // Off until the desk joins a team (TeamProfiles.join with its open team journal).
    const teamProfiles = new TeamProfiles(db, profiles, options.secrets, (id) =>
      connections.forget(id),
    );
    let sandbox: Sandbox | undefined;
    const keys = new KeyService(
      profiles,
      options.secrets,
      (profile, publicKeyPem) => {
        // The old key's client and parsed key go now, not at the next operation.
        connections.forget(profile.id);
        if (profile.embedded && sandbox) {
          void registerWithSandbox(sandbox, options.secrets, profile, publicKeyPem).catch(
            (error: unknown) => log.log('error', 'The sandbox did not take the new key', { error }),
          );
        }
      },
      teamProfiles,
    );
    // One action path for every operation that moves money or registers something.
    const actions = new ActionPath(db, journal, connections, {
      operator: options.operator,
      ...(options.wait ? { wait: options.wait } : {}),
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
    const orders = new OrderService(
      db,
      journal,
      connections,
      { operator: options.operator },
      actions,
    );
    const cards = new CardService(actions, connections);

    const probe = await options.secrets.probe();
    let report: StartupReport;
    if (!probe.usable) {
      log.log('warn', 'The keychain cannot be used', { reason: probe.error.reason });
      report = {
        keychain: { usable: false, message: probe.error.message },
        store: storeReport,
        // First run is a fact of the database, not of the keychain: no profile yet (and a
        // database that could not be read is not a first run).
        firstRun: !store.fault && profiles.list().length === 0,
        sandbox: {
          running: false,
          message: 'The built-in sandbox needs the keychain for its keys.',
        },
      };
    } else if (store.fault) {
      // The sandbox's profile follows its port, a write; and its own database sits in the same folder.
      report = {
        keychain: { usable: true },
        store: storeReport,
        firstRun: false,
        sandbox: {
          running: false,
          message: 'The built-in sandbox does not start while the database is read-only.',
        },
      };
    } else {
      const started = await startEmbeddedSandbox(options, profiles, keys, log).catch(
        (error: unknown) => {
          log.log('error', 'The built-in sandbox did not start', { error });
          return { message: error instanceof Error ? error.message : String(error) };
        },
      );
      if ('sandbox' in started) {
        sandbox = started.sandbox;
        report = {
          keychain: { usable: true },
          store: storeReport,
          firstRun: started.firstRun,
          sandbox: { running: true, baseUrl: sandbox.baseUrl, profileId: started.profile.id },
        };
      } else {
        report = {
          keychain: { usable: true },
          store: storeReport,
          firstRun: false,
          sandbox: { running: false, message: started.message },
        };
      }
    }
    // Reconciling writes the journal: a read-only start leaves every entry as it is, for the next start.
    const reconciled = probe.usable && !store.fault ? actions.reconcile() : Promise.resolve([]);
    // Batches that were running when the last process ended show paused and interrupted; the
    // reconcile above settles their rows in flight, and the clerk resumes them.
    const batches = new BatchService(db, journal, profiles, orders, { operator: options.operator });
    if (!store.fault) batches.recover();
    return new PaydeskServices(
      db,
      new ProfileService(profiles, options.secrets, connections, teamProfiles),
      keys,
      orders,
      new PayoutService(actions),
      cards,
      new RecurringService(actions, cards),
      new PayLinkService(actions),
      new JournalService(journal),
      new CallbackService(profiles, options.secrets),
      batches,
      report,
      reconciled,
      sandbox,
      store,
      { profiles: teamProfiles, upload: new TeamUploadService(db, teamProfiles) },
    );
  }

  async close(): Promise<void> {
    await this.reconciled.catch(() => undefined);
    await this.batches.close(); // paused: the rows being sent reach their end first
    await this.orders.close(); // the one action path: every follow-up stops
    await this.sandbox?.close();
    this.store.close();
  }
}

async function registerWithSandbox(
  sandbox: Sandbox,
  secrets: SecretStore,
  profile: Profile,
  publicKeyPem: string,
): Promise<void> {
  const controlKey = await secrets.get(profile.id, 'control-key');
  if (!controlKey) return;
  sandbox.replaceMerchant({
    login: profile.login,
    controlKey,
    endpointId: profile.endpointId,
    publicKeyPem,
  });
}

/**
 * The sandbox Paydesk runs itself. On the very first start (no profile at all) it makes the
 * "Sandbox" profile with a fresh control key and RSA key in the keychain; on every start it
 * runs the sandbox on a free loopback port with demo orders and points the profile at it.
 */
async function startEmbeddedSandbox(
  options: StartOptions,
  profiles: Profiles,
  keys: KeyService,
  log: Logger,
): Promise<{ sandbox: Sandbox; profile: Profile; firstRun: boolean } | { message: string }> {
  const all = profiles.list();
  let profile = all.find((p) => p.embedded);
  const firstRun = all.length === 0;
  if (!profile && !firstRun)
    return { message: 'No built-in sandbox profile; the user works with their own profiles.' };

  let controlKey = profile ? await options.secrets.get(profile.id, 'control-key') : undefined;
  const privateKeyPem = profile
    ? await options.secrets.get(profile.id, 'rsa-private-key')
    : undefined;
  // The sandbox's own secrets are Paydesk's to make: if the keychain lost them, make new ones.
  controlKey ??= randomUUID().toUpperCase();
  const material = privateKeyPem
    ? await importPrivateKey(privateKeyPem)
    : await generateKeyPair(options.sandboxKeyBits ?? 2048);

  const sandbox = await startSandbox({
    database: join(options.dataDir, 'sandbox.sqlite'),
    merchants: [
      {
        login: SANDBOX_LOGIN,
        controlKey,
        endpointId: SANDBOX_ENDPOINT,
        publicKeyPem: material.publicKeySpkiPem,
      },
    ],
    seed: 'demo',
    delayMs: options.sandboxDelayMs ?? 2_000,
    log: (message) => log.log('warn', message),
  });
  try {
    if (!profile) {
      profile = profiles.create(
        {
          name: 'Sandbox',
          environment: 'sandbox',
          baseUrl: sandbox.baseUrl,
          endpointId: SANDBOX_ENDPOINT,
          login: SANDBOX_LOGIN,
        },
        { embedded: true },
      );
      log.log('info', 'First start: created the Sandbox profile', { profileId: profile.id });
    } else {
      profile = profiles.setBaseUrl(profile.id, sandbox.baseUrl);
    }
    await options.secrets.set(profile.id, 'control-key', controlKey);
    if (!privateKeyPem) await keys.attach(profile.id, material);
    return { sandbox, profile, firstRun };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
