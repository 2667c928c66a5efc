// Opening a desk's team journal from what the person entered (Settings -> Team journal, once it
// exists): the server, the database, their login and password (kept in the desk's keychain).
// Before anything is used it checks, and says plainly when not: the server answers, the login
// is accepted and in a Paydesk group, the database has the team schema, and at the version this
// Paydesk knows. TLS is required to any server but this computer: a password and the journal
// never cross a network in clear.

import pg from 'pg';

import { isThisComputer, plainConnectionProblem } from '../../../common/team-contract';
import { StoreError } from '../errors';
import { connectionAdvice, notInAGroupMessage } from './advice';
import { toTeamError } from './errors';
import { PgJournal } from './journal';
import { GROUP_ROLES, PG_MIGRATIONS } from './migrations';

export interface TeamSettings {
  host: string;
  port: number;
  database: string;
  login: string;
  password: string;
  /** This desk's name, stored with every entry and answer. */
  desk: string;
  /** The server's CA certificate (PEM), when it is not one the system trusts. */
  caPem?: string;
  /**
   * 'verified': TLS with the server's certificate checked (any host); 'none': no TLS, allowed
   * only to this computer. Unset: TLS to any other computer, none to this one (tlsFor).
   */
  tls?: 'verified' | 'none';
}

export interface TeamJournal {
  journal: PgJournal;
  login: string;
  /** The person's Paydesk groups, for the screens to show only what they allow. */
  roles: string[];
  /** The team schema's version in the database (TEAM_SCHEMA_VERSION once checked). */
  schemaVersion: number;
  close(): Promise<void>;
}

/** A journal on its pool, not yet checked: the pool connects on each query, so it outlives an outage. */
export interface TeamConnection {
  journal: PgJournal;
  where: string;
  /** This desk's name, as given in the settings. */
  desk: string;
  /** The pool the journal uses (the team's profiles and the upload may share it). */
  pool: pg.Pool;
  /** Checks the server, the login, its group and the schema; throws a StoreError saying what is wrong. */
  check(): Promise<{ login: string; roles: string[]; schemaVersion: number }>;
  close(): Promise<void>;
}

/** pg's TLS setting for a host: none to this computer, verified TLS to any other. */
export function tlsFor(
  host: string,
  caPem?: string,
): false | { rejectUnauthorized: true; ca?: string } {
  if (isThisComputer(host)) return false;
  return { rejectUnauthorized: true, ...(caPem ? { ca: caPem } : {}) };
}

/** The newest team schema this Paydesk knows. */
export const TEAM_SCHEMA_VERSION = Math.max(...PG_MIGRATIONS.map((m) => m.version));

function problem(code: 'FAILED' | 'NOT_ALLOWED' | 'NEWER_SCHEMA', message: string): StoreError {
  return new StoreError(code, message);
}

/** pg's TLS setting for what the person chose; a plain connection to another computer is refused. */
function sslOf(settings: TeamSettings): false | { rejectUnauthorized: true; ca?: string } {
  if (settings.tls === undefined) return tlsFor(settings.host, settings.caPem);
  if (settings.tls === 'verified')
    return { rejectUnauthorized: true, ...(settings.caPem ? { ca: settings.caPem } : {}) };
  const refused = plainConnectionProblem(settings.host);
  if (refused) throw problem('NOT_ALLOWED', refused);
  return false;
}

export interface TeamOpenOptions {
  claimWaitMs?: number;
  answerWaitMs?: number;
  connectTimeoutMs?: number;
}

/**
 * The journal on a pool of its own, without connecting yet. A desk whose database is away at
 * start keeps this: pg's pool opens a connection per query, so writing works again, without a
 * restart, as soon as the server answers (check() says when).
 */
export function connectTeamJournal(
  settings: TeamSettings,
  options: TeamOpenOptions = {},
): TeamConnection {
  const where = `PostgreSQL at ${settings.host}:${settings.port}`;
  const pool = new pg.Pool({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.login,
    password: settings.password,
    ssl: sslOf(settings),
    application_name: `Paydesk ${settings.desk}`.slice(0, 63),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    max: 4,
  });
  pool.on('error', () => undefined);
  const names = { login: settings.login, database: settings.database };
  const journal = new PgJournal(pool, {
    desk: settings.desk,
    where,
    names,
    ...(options.claimWaitMs !== undefined ? { claimWaitMs: options.claimWaitMs } : {}),
    ...(options.answerWaitMs !== undefined ? { answerWaitMs: options.answerWaitMs } : {}),
  });
  const check = async () => {
    try {
      const version = await schemaVersion(pool, settings, where);
      if (version > TEAM_SCHEMA_VERSION)
        throw problem(
          'NEWER_SCHEMA',
          `The team journal in ${settings.database} (${where}) was set up by a newer Paydesk (schema ${version}; this one knows ${TEAM_SCHEMA_VERSION}). Update Paydesk on this desk to use it.`,
        );
      if (version < TEAM_SCHEMA_VERSION)
        throw problem(
          'FAILED',
          `The team journal in ${settings.database} (${where}) is at schema ${version}; this Paydesk needs ${TEAM_SCHEMA_VERSION}. Ask your database administrator to run npm run team:init on it again (docs/team.md); it only adds what is missing.`,
        );
      const me = await journal.me();
      if (!me.roles.some((r) => (GROUP_ROLES as readonly string[]).includes(r)))
        throw notInAGroup(settings, where);
      return { login: me.login, roles: me.roles, schemaVersion: version };
    } catch (error) {
      throw toTeamError(error, where, names);
    }
  };
  let closed: Promise<void> | undefined;
  return {
    journal,
    where,
    desk: settings.desk,
    pool,
    check,
    close: () => (closed ??= pool.end().catch(() => undefined)),
  };
}

/** Connects and checks at once (Settings -> Team journal's test): closed again when anything is wrong. */
export async function openTeamJournal(
  settings: TeamSettings,
  options: TeamOpenOptions = {},
): Promise<TeamJournal> {
  const connection = connectTeamJournal(settings, options);
  try {
    const found = await connection.check();
    return { journal: connection.journal, ...found, close: () => connection.close() };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

function notInAGroup(settings: TeamSettings, where: string): StoreError {
  return problem('NOT_ALLOWED', notInAGroupMessage(settings.login, where));
}

async function schemaVersion(
  pool: pg.Pool,
  settings: TeamSettings,
  where: string,
): Promise<number> {
  try {
    const { rows } = await pool.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM paydesk.schema_version',
    );
    return rows[0]?.version ?? 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 3F000: no schema paydesk; 42P01: no table in it. The database was never set up.
    if (code === '3F000' || code === '42P01')
      throw problem(
        'FAILED',
        `The database ${settings.database} (${where}) has no Paydesk team journal. Ask your database administrator to set it up with npm run team:init or docs/team.sql (docs/team.md).`,
      );
    // The schema is closed to logins in no Paydesk group; the database, when CONNECT was
    // revoked from PUBLIC, to logins the DBA did not grant it.
    if (code === '42501') {
      const names = { login: settings.login, database: settings.database };
      const { message } = error as { message?: string };
      throw (
        connectionAdvice(code, message ?? '', where, names, error) ?? notInAGroup(settings, where)
      );
    }
    throw error;
  }
}
