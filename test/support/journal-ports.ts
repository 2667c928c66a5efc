// The two journal adapters, set up the same way for the conformance tests: the desk's SQLite
// (a real file in a temp folder) and a team's PostgreSQL (a throw-away cluster, the schema
// applied as a DBA would, a finance login connecting over TCP as a desk does).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { openDatabase } from '../../main/store/sqlite/database';
import type { JournalPort } from '../../main/store/journal/port';
import { PgJournal, type PgJournalOptions } from '../../main/store/postgres/journal';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { postgresForTests, startCluster, type PgCluster } from './postgres';
import { createTeamDatabase, type Person, type TeamDb } from './team';

export interface PortHarness {
  port: JournalPort;
  /** Adds a gateway profile the entries can name. */
  addProfile(id: string): Promise<void>;
  /**
   * Moves an entry's written-at time, as only the store's owner can (the journal itself never
   * changes it): for tests of the journal's date filter.
   */
  setCreatedAt(clientOrderId: string, at: string): Promise<void>;
  close(): Promise<void>;
}

/** The operator every conformance entry names; on PostgreSQL it is also the login. */
export const OPERATOR = 'ann';

export function sqliteHarness(): PortHarness {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-port-'));
  const db = openDatabase(join(dir, 'paydesk.sqlite'));
  return {
    port: new SqliteJournalPort(db),
    addProfile(id) {
      const at = new Date().toISOString();
      db.prepare(
        `INSERT INTO profiles (id, name, environment, base_url, endpoint_id, login, created_at, updated_at)
         VALUES (?, ?, 'production', 'https://gate.example.com/paynet', '1234', 'shop', ?, ?)`,
      ).run(id, `Shop ${id}`, at, at);
      return Promise.resolve();
    },
    setCreatedAt(clientOrderId, at) {
      db.prepare('UPDATE journal SET created_at = ? WHERE client_orderid = ?').run(
        at,
        clientOrderId,
      );
      return Promise.resolve();
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

export interface TeamHarness {
  team: TeamDb;
  /** A desk: a pool connecting as the person, and the journal port on it. */
  desk(person: Person, desk: string, options?: Partial<PgJournalOptions>): PgJournal;
  addProfile(id: string): Promise<void>;
  setCreatedAt(clientOrderId: string, at: string): Promise<void>;
  close(): Promise<void>;
}

export async function teamHarness(cluster: PgCluster, database: string): Promise<TeamHarness> {
  const team = await createTeamDatabase(cluster, database);
  const pools: pg.Pool[] = [];
  const admin = await team.connect('ada');
  let owner: pg.Client | undefined;
  return {
    team,
    desk(person, desk, options = {}) {
      const pool = new pg.Pool({
        connectionString: team.urlOf(person),
        max: 4,
        connectionTimeoutMillis: 5_000,
      });
      pools.push(pool);
      return new PgJournal(pool, {
        desk,
        where: `PostgreSQL at ${cluster.host}:${cluster.port}`,
        names: { login: person, database },
        ...options,
      });
    },
    async addProfile(id) {
      await admin.query(
        `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
         VALUES ($1, $2, 'production', 'https://gate.example.com/paynet', '1234', 'shop')`,
        [id, `Shop ${id}`],
      );
    },
    async setCreatedAt(clientOrderId, at) {
      // The journal's triggers keep created_at; the schema's owner, as a replica, passes them.
      owner ??= await team.owner();
      await owner.query('SET session_replication_role = replica');
      await owner.query('UPDATE paydesk.journal SET created_at = $2 WHERE client_orderid = $1', [
        clientOrderId,
        at,
      ]);
      await owner.query('SET session_replication_role = DEFAULT');
    },
    async close() {
      await Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined)));
      await team.close();
    },
  };
}

export interface JournalAdapter {
  name: 'SQLite' | 'PostgreSQL';
  /** A harness on a fresh store (a throw-away cluster for PostgreSQL), with ann as its desk. */
  open: () => Promise<PortHarness>;
  /** PostgreSQL is not installed here (the tests say why; never on CI). */
  skip: boolean;
}

/** The two journal stores, for tests that run the same cases on each. */
export function journalAdapters(what: string): JournalAdapter[] {
  const withPostgres = postgresForTests(what);
  return [
    { name: 'SQLite', open: () => Promise.resolve(sqliteHarness()), skip: false },
    {
      name: 'PostgreSQL',
      skip: !withPostgres,
      async open() {
        const cluster: PgCluster = await startCluster();
        const team = await teamHarness(cluster, 'conformance');
        return {
          port: team.desk('ann', 'Front-1'),
          addProfile: (id) => team.addProfile(id),
          setCreatedAt: (id, at) => team.setCreatedAt(id, at),
          async close() {
            await team.close();
            await cluster.stop();
          },
        };
      },
    },
  ];
}
