// A real, throw-away PostgreSQL server for the team-mode tests: `initdb` in a temp folder and
// `pg_ctl` on a free 127.0.0.1 port, stopped and removed at the end. The server refuses to run
// as root, so under root (CI) the binaries run as the unprivileged system user `paydesk-pg`,
// created here when missing. Start-up is kept short: initdb runs once and its output is kept as
// a template that each cluster copies; no fsync, small shared_buffers. So each test file can
// start its own cluster in well under a second.
//
// Where no PostgreSQL is installed the tests that need it skip, saying why (`postgresAvailability`).
// `.ci/run` installs Debian's `postgresql`; a fresh Debian machine has its binaries only under
// /usr/lib/postgresql/<version>/bin (no symlinks on PATH), so that is where they are looked for.

import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
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
  /**
   * The server's log so far (with `logStatements`, every statement it ran, each line led by the
   * client's application_name and a colon): what the server saw, whatever the client says.
   */
  serverLog(): string;
  /** Stops the server as a DBA would (fast shutdown: connections are ended), keeping its data. */
  halt(): Promise<void>;
  /** Starts a halted server again, on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function ensureServerUser(): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).trim());
  // Test files start their clusters in parallel: another one may be creating the user at this
  // moment (useradd then fails, or finds /etc/passwd locked), so look again a few times.
  for (let attempt = 0; ; attempt++) {
    try {
      return { uid: id('-u'), gid: id('-g') };
    } catch (error) {
      if (attempt >= 20) throw error;
    }
    try {
      execFileSync(
        'useradd',
        ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER],
        {
          stdio: 'ignore',
        },
      );
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
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

interface ServerUser {
  root: boolean;
  uid?: number;
  gid?: number;
}

/** Runs one of the server's programs, as the server user under root, in `cwd`. */
function tool(bin: string, user: ServerUser, cwd: string, name: string, args: string[]) {
  return user.root
    ? run('runuser', ['-u', SERVER_USER, '--', join(bin, name), ...args], { cwd, timeout: 30_000 })
    : run(join(bin, name), args, { cwd, timeout: 30_000 });
}

/** A folder the server user owns (the server refuses a data folder it does not own). */
function serverFolder(prefix: string, user: ServerUser): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (user.root) chownSync(dir, user.uid ?? 0, user.gid ?? 0);
  return dir;
}

/**
 * initdb's output, made once and kept in the temp folder (paydesk-pg-template-*, safe to
 * delete): copying it takes a fraction of initdb's second, so each test file can afford its
 * own cluster. Keyed by the server binary, so another PostgreSQL gets its own template.
 */
async function template(
  bin: string,
  user: ServerUser,
): Promise<{ data: string; password: string }> {
  const key = createHash('sha256')
    .update(`${bin}|${statSync(join(bin, 'postgres')).mtimeMs}|${process.getuid?.() ?? ''}`)
    .digest('hex')
    .slice(0, 12);
  const dir = join(tmpdir(), `paydesk-pg-template-${key}`);
  const read = () => ({
    data: join(dir, 'data'),
    password: readFileSync(join(dir, 'password'), 'utf8'),
  });
  if (existsSync(join(dir, 'password'))) {
    if (existsSync(join(dir, 'data', 'global', 'pg_control'))) return read();
    rmSync(dir, { recursive: true, force: true }); // damaged (a temp cleaner?): made again
  }

  const work = serverFolder(`paydesk-pg-template-${key}-making-`, user);
  try {
    const password = randomBytes(18).toString('base64url');
    const pwfile = join(work, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (user.root) chownSync(pwfile, user.uid ?? 0, user.gid ?? 0);
    // Passwords are checked on TCP (scram-sha-256), so each test login is really who it says.
    await tool(bin, user, work, 'initdb', [
      ...['-D', join(work, 'data'), '-U', SUPERUSER, `--pwfile=${pwfile}`],
      ...['--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C'],
      ...['--no-sync', '--no-instructions'],
    ]);
    rmSync(pwfile);
    // Only the tests read it (the server user needs it no more).
    writeFileSync(join(work, 'password'), password, { mode: 0o600 });
    // Atomic: a template is there whole or not at all. Another test file may have won the race.
    renameSync(work, dir);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(join(dir, 'password'))) throw error;
  }
  return read();
}

export interface ClusterOptions {
  /** Serve TLS with this certificate and key (PEM), as a company's server would. */
  tls?: { cert: string; key: string };
  /** Log every statement the server runs (log_statement=all), for serverLog and loggedStatements. */
  logStatements?: boolean;
  /** This port and no other (the screenshots show it); a free one picked by the OS otherwise. */
  port?: number;
}

/**
 * The statements in a server log (PgCluster.serverLog) that clients named `application` sent,
 * in order, each as one line of SQL with its white space folded.
 */
export function loggedStatements(log: string, application: string): string[] {
  const statements: string[][] = [];
  let inOne = false;
  for (const line of log.split('\n')) {
    // A statement of several lines goes on in lines that start with a tab.
    if (inOne && line.startsWith('\t')) {
      statements.at(-1)!.push(line);
      continue;
    }
    // Simple queries log "statement: ...", parameterised ones "execute <name>: ...".
    const match = /^(.*?):LOG:\s+(?:statement|execute [^:]*):\s(.*)$/.exec(line);
    inOne = match?.[1] === application;
    if (inOne) statements.push([match![2]!]);
  }
  return statements.map((lines) => lines.join(' ').replace(/\s+/g, ' ').trim());
}

export async function startCluster(clusterOptions: ClusterOptions = {}): Promise<PgCluster> {
  const availability = postgresAvailability();
  if (!availability.usable) throw new Error(`Cannot start PostgreSQL: ${availability.reason}`);
  const { bin } = availability;
  const started = performance.now();
  const user: ServerUser = isRoot() ? { root: true, ...ensureServerUser() } : { root: false };
  const { data: templateData, password } = await template(bin, user);

  const dir = serverFolder('paydesk-pg-', user);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  // cwd is the temp folder: the server user may not be allowed into the caller's folder.
  const pgTool = (name: string, args: string[]) => tool(bin, user, dir, name, args);

  let port = 0;
  let running = false;
  const stopSync = () => {
    if (!running) return;
    running = false;
    const args = ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '10'];
    const [file, argv] = user.root
      ? ['runuser', ['-u', SERVER_USER, '--', join(bin, 'pg_ctl'), ...args]]
      : [join(bin, 'pg_ctl'), args];
    try {
      execFileSync(file, argv, { cwd: dir, stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  };
  // A test process that dies without its afterAll still takes its server with it.
  process.once('exit', stopSync);

  try {
    // -a keeps the server user as owner and the data folder's 0700.
    await run('cp', ['-a', templateData, data], { timeout: 30_000 });
    const { tls } = clusterOptions;
    if (tls) {
      // The server reads its key only when it is private to the server user.
      for (const [name, pem] of [
        ['server.crt', tls.cert],
        ['server.key', tls.key],
      ] as const) {
        const file = join(dir, name);
        writeFileSync(file, pem, { mode: 0o600 });
        if (user.root) chownSync(file, user.uid ?? 0, user.gid ?? 0);
      }
    }
    // The port is free when asked and taken by the server a moment later; another process can
    // win that race, so a failed start is tried again on a new port, three times at most.
    let lastError: unknown;
    for (let attempt = 0; attempt < (clusterOptions.port ? 1 : 3) && !running; attempt++) {
      port = clusterOptions.port ?? (await freePort());
      try {
        await startServer();
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

  async function startServer() {
    const options = [
      ...[`-c port=${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${dir}`],
      ...['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'],
      ...[
        '-c shared_buffers=16MB',
        '-c max_connections=30',
        '-c max_wal_senders=0',
        '-c wal_level=minimal',
      ],
      ...(clusterOptions.logStatements ? ['-c log_statement=all', '-c log_line_prefix=%a:'] : []),
      ...(clusterOptions.tls
        ? ['-c ssl=on', `-c ssl_cert_file=${dir}/server.crt`, `-c ssl_key_file=${dir}/server.key`]
        : []),
    ].join(' ');
    await pgTool('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '20', '-o', options]);
    running = true;
  }

  const host = '127.0.0.1';
  const url = (login: string, pass: string, database = 'postgres') =>
    `postgres://${encodeURIComponent(login)}:${encodeURIComponent(pass)}@${host}:${port}/${encodeURIComponent(database)}`;
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
    serverLog: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    async halt() {
      if (!running) return;
      await pgTool('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '20']);
      running = false;
    },
    async resume() {
      if (!running) await startServer();
    },
    async stop() {
      if (running) {
        try {
          await pgTool('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '20']);
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
