// Which journal a desk writes, chosen once at start: the desk's own SQLite, or, when Settings ->
// Team journal saved settings (team.json and the password in the keychain), the team's
// PostgreSQL. A team desk whose database is away, or refuses it, still opens: its port refuses
// every journal call with the database's plain sentence (so nothing that moves money leaves
// without its entry), the gateway's lookups work as ever, and it never falls back to the local
// SQLite journal, which would split the team's journal in two. The pool reconnects per query, so
// once the database is back the next call works, without a restart.

import type { Logger } from '../../log';
import type { SecretStore } from '../../secrets';
import type { Db } from '../../store/sqlite/database';
import { StoreError } from '../../store/errors';
import type { JournalPort } from '../../store/journal/port';
import type { TeamConnection, TeamOpenOptions } from '../../store/postgres/connect';
import { SqliteJournalPort } from '../../store/sqlite/journal-port';
import type { SessionData } from '../../../common/team-contract';
import { readTeamPassword, readTeamSettings, withPassword } from './settings';
import { TeamJournalPort, UnopenedTeamPort, type Refreshed } from './team-port';

export interface JournalSession {
  readonly journal: 'local' | 'team';
  /** Who writes, where, and whether the team's database answers now (asked afresh each time). */
  get(): Promise<SessionData>;
  close(): Promise<void>;
}

export interface StartupJournal {
  port: JournalPort;
  session: JournalSession;
  /** The team's connection (its pool, desk and server) when this desk opened one. */
  team?: TeamConnection;
  /**
   * On a team, the session as the start's own check of the database found it: whoever needs it
   * at start takes it from here rather than asking the database again.
   */
  atStart?: SessionData;
  /** For the startup report and the log. */
  report: { kind: 'local' } | { kind: 'team'; reachable: boolean; where: string; message?: string };
}

export interface JournalAtStartOptions {
  dataDir: string;
  db: Db;
  secrets: SecretStore;
  /** The OS user: who the local journal says wrote an entry. */
  operator: string;
  log: Logger;
  team?: TeamOpenOptions;
}

export async function openJournalAtStart(options: JournalAtStartOptions): Promise<StartupJournal> {
  let settings;
  try {
    settings = await readTeamSettings(options.dataDir);
  } catch (error) {
    return unopened(options, 'the team journal', (error as Error).message);
  }
  if (!settings) return local(options);

  const where = `PostgreSQL at ${settings.host}:${settings.port}`;
  let password: string | undefined;
  try {
    password = await readTeamPassword(options.secrets);
  } catch (error) {
    return unopened(
      options,
      where,
      `This desk uses the team journal (${where}), but its password cannot be read from the keychain: ${(error as Error).message}`,
      settings,
    );
  }
  if (!password)
    return unopened(
      options,
      where,
      `This desk uses the team journal (${where}), but its password is not in this computer's keychain. Enter it again in Settings -> Team journal.`,
      settings,
    );

  // PostgreSQL's client is loaded only by a desk on a team, not at every start.
  const { connectTeamJournal } = await import('../../store/postgres/connect');
  const connection = connectTeamJournal(withPassword(settings, password), options.team);
  const port = new TeamJournalPort(connection);
  const first = await port.refresh();
  if (first.ok) {
    options.log.log('info', 'Opened the team journal', { where, login: first.found.login });
  } else {
    options.log.log('error', 'The team journal cannot be used at start; Paydesk opens without it', {
      where,
      code: first.error.code,
    });
  }
  /** The session as a check of the database found it. */
  const sessionOf = (check: Refreshed): SessionData =>
    check.ok
      ? {
          journal: 'team',
          login: check.found.login,
          desk: settings.desk,
          groups: check.found.roles,
          reachable: true,
          where,
        }
      : {
          journal: 'team',
          login: settings.login,
          desk: settings.desk,
          groups: [],
          reachable: false,
          problem: check.error.message,
          where,
        };
  return {
    port,
    team: connection,
    atStart: sessionOf(first),
    session: {
      journal: 'team',
      get: async () => sessionOf(await port.refresh()),
      close: () => connection.close(),
    },
    report: first.ok
      ? { kind: 'team', reachable: true, where }
      : { kind: 'team', reachable: false, where, message: first.error.message },
  };
}

function local(options: JournalAtStartOptions): StartupJournal {
  const port = new SqliteJournalPort(options.db);
  return {
    port,
    session: {
      journal: 'local',
      get: () =>
        Promise.resolve({
          journal: 'local',
          login: options.operator,
          desk: null,
          groups: [],
          reachable: true,
        }),
      close: () => port.close(),
    },
    report: { kind: 'local' },
  };
}

/** Team settings that cannot be used (no password, unreadable file): every journal call refused. */
function unopened(
  options: JournalAtStartOptions,
  where: string,
  message: string,
  settings?: { login: string; desk: string },
): StartupJournal {
  options.log.log('error', 'The team journal cannot be opened; Paydesk opens without it', {
    where,
  });
  const error = new StoreError('NOT_ALLOWED', message);
  return {
    port: new UnopenedTeamPort(error),
    session: {
      journal: 'team',
      get: () =>
        Promise.resolve({
          journal: 'team',
          login: settings?.login ?? options.operator,
          desk: settings?.desk ?? null,
          groups: [],
          reachable: false,
          problem: message,
          where,
        }),
      close: () => Promise.resolve(),
    },
    report: { kind: 'team', reachable: false, where, message },
  };
}
