// The two journal adapters, set up the same way for the conformance tests: the desk's SQLite
// (a real file in a temp folder) and a team's PostgreSQL (a throw-away cluster, the schema
// applied as a DBA would, a finance login connecting over TCP as a desk does).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { openDatabase } from '../../main/store/database';
import type { JournalPort } from '../../main/store/port';
import { PgJournal, type PgJournalOptions } from '../../main/store/postgres/journal';
import { SqliteJournalPort } from '../../main/store/sqlite-port';
import type { PgCluster } from './postgres';
import { createTeamDatabase, type Person, type TeamDb } from './team';

export interface PortHarness {
  port: JournalPort;
  /** Adds a gateway profile the entries can name. */
  addProfile(id: string): Promise<void>;
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
  close(): Promise<void>;
}

export async function teamHarness(cluster: PgCluster, database: string): Promise<TeamHarness> {
  const team = await createTeamDatabase(cluster, database);
  const pools: pg.Pool[] = [];
  const admin = await team.connect('ada');
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
    async close() {
      await Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined)));
      await team.close();
    },
  };
}
