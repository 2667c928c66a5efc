// The money-moving services on either journal store, built as PaydeskServices builds them: each
// desk has its own SQLite file (its profiles, its batch plans) and its own in-memory keychain,
// and writes its journal entries through the port the store gives it. On SQLite every desk of a
// store opens the same file (windows or processes of one desk); on PostgreSQL every desk is a
// login of the team connecting over TCP to one journal on a throw-away cluster. The gateway
// profile is the same id everywhere, in paydesk.profiles too (journal.profile_id references it).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ActionPath } from '../../main/services/action/path';
import { BatchService } from '../../main/services/batch/batch';
import { JournalService } from '../../main/services/journal';
import type { OrderService, OrderServiceOptions } from '../../main/services/orders/orders';
import { PayoutService } from '../../main/services/payouts';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import type { JournalPort } from '../../main/store/journal/port';
import type { PgJournalOptions } from '../../main/store/postgres/journal';
import { Profiles } from '../../main/store/sqlite/profiles';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { teamHarness, type TeamHarness } from './journal-ports';
import type { PgCluster } from './postgres';
import { SHOP } from './shop';
import type { Person } from './team';
import { orderDesk } from './order-desk';

export interface ServiceDesk {
  /** The desk's own database: profiles, recent orders, batch plans. */
  db: Db;
  port: JournalPort;
  path: ActionPath;
  orders: OrderService;
  payouts: PayoutService;
  batches: BatchService;
  journal: JournalService;
  close(): Promise<void>;
}

export interface DeskOptions {
  /** The team login (PostgreSQL only; SQLite records `operator`). */
  person?: Person;
  /** The desk's name (PostgreSQL: stored with each entry, told to a desk finding an order busy). */
  desk?: string;
  service?: Partial<OrderServiceOptions>;
  pg?: Partial<PgJournalOptions>;
  /** A port of the test's own making on this store (a desk running other code). */
  wrap?: (port: JournalPort) => JournalPort;
}

export interface ServiceStore {
  kind: 'sqlite' | 'postgres';
  profileId: string;
  desk(options?: DeskOptions): Promise<ServiceDesk>;
  close(): Promise<void>;
}

/** Quick polling and a short quarantine, as the reliability tests use. */
export const FAST: Partial<OrderServiceOptions> = {
  wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
  quarantineMs: 3_000,
  recordRetry: { foreground: 2, background: 40, firstDelayMs: 50, maxDelayMs: 500 },
};

interface Gateway {
  baseUrl: string;
  controlKey: string;
}

function addLocalProfile(db: Db, id: string, gateway: Gateway): void {
  const at = new Date().toISOString();
  db.prepare(
    `INSERT INTO profiles (id, name, environment, base_url, endpoint_id, login, created_at, updated_at)
     VALUES (?, 'Shop', 'sandbox', ?, ?, ?, ?, ?)`,
  ).run(id, gateway.baseUrl, SHOP.endpointId, SHOP.login, at, at);
}

async function buildDesk(
  dir: string,
  profileId: string,
  gateway: Gateway,
  port: JournalPort,
  operator: string,
  service: Partial<OrderServiceOptions>,
  file = join(dir, `desk-${randomBytes(4).toString('hex')}.sqlite`),
): Promise<ServiceDesk> {
  const db = openDatabase(file);
  const profiles = new Profiles(db);
  if (!profiles.get(profileId)) addLocalProfile(db, profileId, gateway);
  const { path, orders } = await orderDesk(db, port, {
    profileId,
    controlKey: gateway.controlKey,
    ...FAST,
    ...service,
    operator,
  });
  const batches = new BatchService(db, port, profiles, orders, { operator });
  return {
    db,
    port,
    path,
    orders,
    payouts: new PayoutService(path),
    batches,
    journal: new JournalService(port),
    async close() {
      await batches.close(500);
      await path.close();
      db.close();
    },
  };
}

/** Every desk on one SQLite file, as windows or processes of one desk. */
export function sqliteStore(gateway: Gateway): ServiceStore {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-services-'));
  const file = join(dir, 'paydesk.sqlite');
  const profileId = `p-${randomBytes(4).toString('hex')}`;
  const desks: ServiceDesk[] = [];
  return {
    kind: 'sqlite',
    profileId,
    async desk(options = {}) {
      const db = openDatabase(file);
      let port: JournalPort = new SqliteJournalPort(db);
      if (options.wrap) port = options.wrap(port);
      const desk = await buildDesk(
        dir,
        profileId,
        gateway,
        port,
        options.person ?? 'ann',
        options.service ?? {},
        file,
      );
      const close = desk.close.bind(desk);
      desk.close = async () => {
        await close();
        db.close();
      };
      desks.push(desk);
      return desk;
    },
    async close() {
      for (const desk of desks.splice(0)) await desk.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TeamStore extends ServiceStore {
  team: TeamHarness;
}

/** One journal on a team database of `cluster`; each desk a login over TCP. */
export async function postgresStore(
  cluster: PgCluster,
  database: string,
  gateway: Gateway,
): Promise<TeamStore> {
  const team = await teamHarness(cluster, database);
  // The team database closes an entry as not received only after its own quarantine: the
  // DBA keeps it equal to the desks' (docs/team.md), here the short one of FAST.
  const owner = await team.team.owner();
  await owner.query('UPDATE paydesk.rules SET quarantine = $1::interval', [
    `${FAST.quarantineMs ?? 0} milliseconds`,
  ]);
  const profileId = `p-${randomBytes(4).toString('hex')}`;
  await team.addProfile(profileId);
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-team-desks-'));
  const desks: ServiceDesk[] = [];
  let count = 0;
  return {
    kind: 'postgres',
    profileId,
    team,
    async desk(options = {}) {
      const person = options.person ?? 'ann';
      let port: JournalPort = team.desk(person, options.desk ?? `Desk-${++count}`, options.pg);
      if (options.wrap) port = options.wrap(port);
      const desk = await buildDesk(dir, profileId, gateway, port, person, options.service ?? {});
      desks.push(desk);
      return desk;
    },
    async close() {
      for (const desk of desks.splice(0)) await desk.close().catch(() => undefined);
      await team.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
