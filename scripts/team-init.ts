// `npm run team:init -- postgres://dba@db.example.com/paydesk` sets up (or brings up to date) the
// team journal in a PostgreSQL database: the three group roles, the schema, the policies. Safe
// to run again: it says what it did, or that there was nothing to do.
// `npm run team:init -- --print-sql` prints the same steps as SQL (docs/team.sql is that text).

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import pg from 'pg';

import { applyTeamSchema, teamSql } from '../main/store/postgres/schema';

const USAGE = `Usage: npm run team:init -- postgres://USER@HOST:PORT/DATABASE
       npm run team:init -- --print-sql > docs/team.sql

  Connect as a superuser, or as the database's owner with CREATEROLE. The password may be in
  the URL or in PGPASSWORD. A server other than this computer needs TLS: add ?sslmode=verify-full
  (or require) to the URL.`;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The URL's problem for a person to fix, or undefined when it can be used. */
export function checkUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not a URL; expected postgres://USER@HOST:PORT/DATABASE.`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `The URL must start with postgres:// (it starts with ${url.protocol}//).`;
  }
  if (url.pathname.length <= 1) return 'The URL names no database: add /DATABASE at its end.';
  const sslmode = url.searchParams.get('sslmode');
  if (
    !LOOPBACK.has(url.hostname) &&
    !['require', 'verify-ca', 'verify-full'].includes(sslmode ?? '')
  ) {
    return `${url.hostname} is not this computer, so the connection needs TLS: add ?sslmode=verify-full to the URL.`;
  }
  return undefined;
}

export async function teamInit(argv: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { 'print-sql': { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values['print-sql']) {
    if (positionals.length > 0) {
      io.err(`--print-sql connects to nothing; leave out the URL.\n\n${USAGE}`);
      return 2;
    }
    io.out(teamSql().trimEnd());
    return 0;
  }
  const [url, ...extra] = positionals;
  if (url === undefined || extra.length > 0) {
    io.err(
      `${url === undefined ? 'No database URL given.' : 'Give one database URL.'}\n\n${USAGE}`,
    );
    return 2;
  }
  const problem = checkUrl(url);
  if (problem) {
    io.err(problem);
    return 2;
  }
  const client = new pg.Client({ connectionString: url, application_name: 'Paydesk team:init' });
  try {
    await client.connect();
  } catch (error) {
    io.err(`Could not connect to ${new URL(url).host}: ${(error as Error).message}`);
    return 1;
  }
  try {
    const { rows } = await client.query<{ db: string; who: string }>(
      'SELECT current_database() AS db, session_user AS who',
    );
    io.out(`database ${rows[0]?.db} as ${rows[0]?.who}`);
    await applyTeamSchema(client, io.out);
    return 0;
  } catch (error) {
    io.err(`team:init failed, nothing was changed: ${(error as Error).message}`);
    return 1;
  } finally {
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await teamInit(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
