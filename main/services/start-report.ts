// What a start tells the window (the keychain, the database, the journal, the built-in
// sandbox), and the sandbox started when it can be: it needs the keychain for its keys and a
// database that can be written (its profile follows its port). Apart from app.ts's wiring, since
// each of its cases is a sentence a person reads on the first screen.

import type { Logger } from '../log';
import type { Sandbox } from '../sandbox';
import type { SecretStoreStatus } from '../secrets';
import type { StoreFault } from '../store/sqlite/database';
import type { Profiles } from '../store/sqlite/profiles';
import type { RestoreReport } from './desk-store';
import { ownProfiles, startEmbeddedSandbox, type EmbeddedSandboxOptions } from './embedded-sandbox';
import type { KeyService } from './keys';
import type { StartupJournal } from './team/journal-at-start';
import type { TeamProfiles } from './team/profiles';

export interface StartupReport {
  keychain: { usable: true } | { usable: false; message: string };
  /**
   * A damaged, read-only, unwritable, missing or empty database opens the app read-only, with
   * the reason and the latest backup to offer; `restored` says what this start restored.
   */
  store: (
    | { writable: true; file: string }
    | ({ writable: false; latestBackup?: { name: string; takenAt: string } } & StoreFault)
  ) & { restored?: RestoreReport };
  firstRun: boolean;
  /** Which journal this desk writes; a team journal that could not be used at start says why. */
  journal: StartupJournal['report'];
  /** Running: `message` says when it could not keep its address (its port taken). */
  sandbox:
    | { running: true; baseUrl: string; profileId: string; message?: string }
    | { running: false; message: string };
}

export interface ReportInputs {
  options: EmbeddedSandboxOptions;
  log: Logger;
  step: (step: string) => void;
  probe: SecretStoreStatus;
  store: StartupReport['store'];
  journal: StartupReport['journal'];
  profiles: Profiles;
  teamProfiles: TeamProfiles;
  keys: KeyService;
}

/** The start's report, with the built-in sandbox started when the keychain and database allow. */
export async function reportAndSandbox(
  inputs: ReportInputs,
): Promise<{ report: StartupReport; sandbox?: Sandbox }> {
  const { options, log, step, probe, store, journal, profiles, teamProfiles, keys } = inputs;
  if (!probe.usable) {
    log.log('warn', 'The keychain cannot be used', { reason: probe.error.reason });
    return {
      report: {
        keychain: { usable: false, message: probe.error.message },
        store,
        // First run is a fact of the database, not of the keychain: no profile yet (and a
        // database that could not be read is not a first run).
        firstRun: store.writable && ownProfiles(profiles, teamProfiles).length === 0,
        journal,
        sandbox: {
          running: false,
          message: 'The built-in sandbox needs the keychain for its keys.',
        },
      },
    };
  }
  // With the keychain, but no sandbox (and so no first run: a profile was made, or could not be).
  const withoutSandbox = (message: string) => ({
    report: {
      keychain: { usable: true as const },
      store,
      firstRun: false,
      journal,
      sandbox: { running: false as const, message },
    },
  });
  // The sandbox's profile follows its port, a write; and its own database sits in the same folder.
  if (!store.writable)
    return withoutSandbox('The built-in sandbox does not start while the database is read-only.');
  step('Starting the built-in sandbox');
  const started = await startEmbeddedSandbox(options, profiles, teamProfiles, keys, log).catch(
    (error: unknown) => {
      log.log('error', 'The built-in sandbox did not start', { error });
      return { message: error instanceof Error ? error.message : String(error) };
    },
  );
  if (!('sandbox' in started)) return withoutSandbox(started.message);
  return {
    sandbox: started.sandbox,
    report: {
      keychain: { usable: true },
      store,
      firstRun: started.firstRun,
      journal,
      sandbox: {
        running: true,
        baseUrl: started.sandbox.baseUrl,
        profileId: started.profile.id,
        ...(started.moved ? { message: started.moved } : {}),
      },
    },
  };
}
