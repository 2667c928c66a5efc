// A real, throw-away PostgreSQL server for the team-mode tests: `initdb` in a temp folder and
// `pg_ctl` on a free 127.0.0.1 port, stopped and removed at the end. The server refuses to run
// as root, so under root (CI) the binaries run as the unprivileged system user `paydesk-pg`,
// created here when missing. Start-up is kept short (no fsync, small shared_buffers): about a
// second, so each test file may start its own cluster.
//
// Where no PostgreSQL is installed the tests that need it skip, saying why (`postgresAvailability`).
// `.ci/run` installs Debian's `postgresql`; a fresh Debian machine has its binaries only under
// /usr/lib/postgresql/<version>/bin (no symlinks on PATH), so that is where they are looked for.

import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

const run = promisify(execFile);

/** The system user the server runs as when the tests run as root. */
export const SERVER_USER = 'paydesk-pg';
const SUPERUSER = 'postgres';

/** The folder holding `initdb`, `pg_ctl` and `postgres`, or undefined where none is installed. */
export function findPostgresBin(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  const override = process.env.PAYDESK_PG_BIN;
  if (override) return has(override) ? override : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    // The newest major version first: "16" sorts after "9" only numerically.
    const versions = readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const dir = join(debian, version, 'bin');
      if (has(dir)) return dir;
    }
  }
  return (process.env.PATH ?? '').split(delimiter).find((dir) => dir !== '' && has(dir));
}

export type Availability = { usable: true; bin: string } | { usable: false; reason: string };

export function postgresAvailability(): Availability {
  const bin = findPostgresBin();
  if (bin === undefined) {
    return {
      usable: false,
      reason:
        'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin, $PAYDESK_PG_BIN or PATH; install Debian\'s "postgresql" package (.ci/run does)',
    };
  }
  return { usable: true, bin };
}

/**
 * Whether the tests that need PostgreSQL can run. Elsewhere than CI they skip, saying why; on
 * CI, where .ci/run installs PostgreSQL, its absence is a failure, never a silent skip.
 */
export function postgresForTests(what: string): boolean {
  const availability = postgresAvailability();
  if (availability.usable) return true;
  if (process.env.CI)
    throw new Error(`${what} need PostgreSQL, which .ci/run installs: ${availability.reason}`);
  console.warn(`Skipping ${what}: ${availability.reason}`);
  return false;
}

export interface PgCluster {
  host: string;
  port: number;
  /** How long initdb + pg_ctl start took, in milliseconds (for the report, never asserted). */
  startMs: number;
  /** A connection URL for a login of this cluster. */
  url(user: string, password: string, database?: string): string;
  /** The superuser's URL (the DBA's, for team:init). */
  superuserUrl(database?: string): string;
  /** Runs SQL as the superuser on one database (default `postgres`). */
  asSuperuser<T>(fn: (client: pg.Client) => Promise<T>, database?: string): Promise<T>;
  stop(): Promise<void>;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function ensureServerUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', SERVER_USER], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync('useradd', [
      '--system',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      SERVER_USER,
    ]);
    return ids();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

export async function startCluster(): Promise<PgCluster> {
  const availability = postgresAvailability();
  if (!availability.usable) throw new Error(`Cannot start PostgreSQL: ${availability.reason}`);
  const { bin } = availability;
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });

  const root = isRoot();
  if (root) {
    const { uid, gid } = ensureServerUser();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  // cwd is the temp folder: the server user may not be allowed into the caller's folder.
  const tool = (name: string, args: string[]) =>
    root
      ? run('runuser', ['-u', SERVER_USER, '--', join(bin, name), ...args], {
          cwd: dir,
          timeout: 30_000,
        })
      : run(join(bin, name), args, { cwd: dir, timeout: 30_000 });

  let port = 0;
  let running = false;
  const stopSync = () => {
    if (!running) return;
    running = false;
    const args = ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '10'];
    try {
      if (root)
        execFileSync('runuser', ['-u', SERVER_USER, '--', join(bin, 'pg_ctl'), ...args], {
          cwd: dir,
          stdio: 'ignore',
        });
      else execFileSync(join(bin, 'pg_ctl'), args, { cwd: dir, stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  };
  // A test process that dies without its afterAll still takes its server with it.
  process.once('exit', stopSync);

  try {
    // Passwords are checked on TCP (scram-sha-256), so each test login is really who it says.
    await tool('initdb', [
      '-D',
      data,
      '-U',
      SUPERUSER,
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    // The port is free when asked and taken by the server a moment later; another process can
    // win that race, so a failed start is tried again on a new port, three times at most.
    let lastError: unknown;
    for (let attempt = 0; attempt < 3 && !running; attempt++) {
      port = await freePort();
      const options = [
        `-c port=${port}`,
        '-c listen_addresses=127.0.0.1',
        `-c unix_socket_directories=${dir}`,
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c shared_buffers=16MB',
        '-c max_connections=30',
        '-c max_wal_senders=0',
        '-c wal_level=minimal',
      ].join(' ');
      try {
        await tool('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '20', '-o', options]);
        running = true;
      } catch (error) {
        lastError = error;
      }
    }
    if (!running) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '(no log)';
      throw new Error(`PostgreSQL did not start: ${String(lastError)}\n${tail}`);
    }
  } catch (error) {
    stopSync();
    process.removeListener('exit', stopSync);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const host = '127.0.0.1';
  const url = (user: string, pass: string, database = 'postgres') =>
    `postgres://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@${host}:${port}/${encodeURIComponent(database)}`;
  return {
    host,
    port,
    startMs: Math.round(performance.now() - started),
    url,
    superuserUrl: (database) => url(SUPERUSER, password, database),
    async asSuperuser(fn, database) {
      const client = new pg.Client({ connectionString: url(SUPERUSER, password, database) });
      await client.connect();
      try {
        return await fn(client);
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (running) {
        try {
          await tool('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '20']);
          running = false;
        } catch {
          stopSync(); // immediate shutdown, before its folder goes
        }
      }
      process.removeListener('exit', stopSync);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
