// Opening a desk's team journal from what the person entered (Settings -> Team journal, once it
// exists): the server, the database, their login and password (kept in the desk's keychain).
// Before anything is used it checks, and says plainly when not: the server answers, the login
// is accepted and in a Paydesk group, the database has the team schema, and at the version this
// Paydesk knows. TLS is required to any server but this computer: a password and the journal
// never cross a network in clear.

import pg from 'pg';

import { StoreError } from '../errors';
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
}

export interface TeamJournal {
  journal: PgJournal;
  login: string;
  /** The person's Paydesk groups, for the screens to show only what they allow. */
  roles: string[];
  close(): Promise<void>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** pg's TLS setting for a host: none to this computer, verified TLS to any other. */
export function tlsFor(
  host: string,
  caPem?: string,
): false | { rejectUnauthorized: true; ca?: string } {
  if (LOOPBACK.has(host.toLowerCase())) return false;
  return { rejectUnauthorized: true, ...(caPem ? { ca: caPem } : {}) };
}

/** The newest team schema this Paydesk knows. */
export const TEAM_SCHEMA_VERSION = Math.max(...PG_MIGRATIONS.map((m) => m.version));

function problem(code: 'FAILED' | 'NOT_ALLOWED' | 'NEWER_SCHEMA', message: string): StoreError {
  return new StoreError(code, message);
}

export async function openTeamJournal(
  settings: TeamSettings,
  options: { claimWaitMs?: number; answerWaitMs?: number; connectTimeoutMs?: number } = {},
): Promise<TeamJournal> {
  const where = `PostgreSQL at ${settings.host}:${settings.port}`;
  const pool = new pg.Pool({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.login,
    password: settings.password,
    ssl: tlsFor(settings.host, settings.caPem),
    application_name: `Paydesk ${settings.desk}`.slice(0, 63),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    max: 4,
  });
  pool.on('error', () => undefined);
  const journal = new PgJournal(pool, {
    desk: settings.desk,
    where,
    ...(options.claimWaitMs !== undefined ? { claimWaitMs: options.claimWaitMs } : {}),
    ...(options.answerWaitMs !== undefined ? { answerWaitMs: options.answerWaitMs } : {}),
  });
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
    return { journal, login: me.login, roles: me.roles, close: () => pool.end() };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw toTeamError(error, where);
  }
}

function notInAGroup(settings: TeamSettings, where: string): StoreError {
  return problem(
    'NOT_ALLOWED',
    `The login ${settings.login} is in none of the Paydesk groups (${GROUP_ROLES.join(', ')}) on ${where}, so it may not read or write the team journal. Ask your database administrator to add it to one (docs/team.md, "A person's login").`,
  );
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
    // The schema is closed to logins in no Paydesk group.
    if (code === '42501') throw notInAGroup(settings, where);
    throw error;
  }
}
