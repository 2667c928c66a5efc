// The reliability suite's common ground: a sandbox that forgives nothing (repeats are new
// transactions, recorded orders show in `status` only after a while), a Paydesk database with
// its profile, and order services on it as the app builds them.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ClientOptions } from '../../main/gateway/client';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import type { Misbehaviour } from '../../main/sandbox';
import { defaultClientFactory } from '../../main/services/connection';
import type { OrderService, OrderServiceOptions } from '../../main/services/orders/orders';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import type { JournalPort } from '../../main/store/journal/port';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { SHOP, shopProfile } from '../support/shop';
import { CONTROL_KEY } from '../support/samples';
import { orderDesk } from '../support/order-desk';

export { CONTROL_KEY };

/** Both switches of a gateway that forgives nothing, on top of any other misbehaviour. */
export function unforgiving(
  visibilityDelayMs: number,
  more: Partial<Misbehaviour> = {},
): Partial<Misbehaviour> {
  return { noDedupe: true, visibilityDelayMs, operations: ['RETURN'], ...more };
}

export function startUnforgivingSandbox(visibilityDelayMs: number): Promise<Sandbox> {
  return startSandbox({
    merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
    delayMs: 50,
    tickMs: 20,
    log: () => undefined,
    misbehaviour: unforgiving(visibilityDelayMs),
  });
}

export interface Desk {
  dir: string;
  file: string;
  profileId: string;
  /** A new database connection and order service on the same file: a (re)start of Paydesk. */
  start(options?: StartOptions): Promise<Started>;
  dispose(): void;
}

export type StartOptions = Partial<OrderServiceOptions> & {
  timeoutMs?: number;
  clientOptions?: ClientOptions;
  /** Wraps the journal (e.g. one whose disk fills up). */
  journal?: (db: Db) => Journal;
};

export interface Started {
  db: Db;
  journal: Journal;
  /** The same journal as the services see it. */
  port: JournalPort;
  service: OrderService;
  stop(): Promise<void>;
}

/** Fast polling for tests; the quarantine shortened to what the sandbox's lag needs. */
export const FAST_WAIT = { delayAfter: () => 25, giveUpAfterMs: 20_000 };

export function createDesk(sandbox: Sandbox): Desk {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-reliability-'));
  const file = join(dir, 'paydesk.sqlite');
  const setup = openDatabase(file);
  const profileId = shopProfile(setup, sandbox);
  setup.close();
  return {
    dir,
    file,
    profileId,
    async start(options = {}) {
      const { timeoutMs, clientOptions, journal: makeJournal, ...rest } = options;
      const db = openDatabase(file);
      const journal = makeJournal ? makeJournal(db) : new Journal(db);
      const port = new SqliteJournalPort(db, journal);
      const { orders: service } = await orderDesk(db, port, {
        profileId,
        clientFactory: defaultClientFactory({
          ...clientOptions,
          ...(timeoutMs ? { timeoutMs } : {}),
        }),
        wait: FAST_WAIT,
        quarantineMs: 3_000,
        ...rest,
      });
      return {
        db,
        port,
        journal,
        service,
        async stop() {
          await service.close();
          db.close();
        },
      };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Reversals the sandbox recorded for an order (every one of them, approved or not). */
export function reversalsOf(sandbox: Sandbox, orderId: string) {
  return sandbox
    .orders(SHOP.endpointId)
    .filter((o) => o.kind === 'reversal' && o.parentOrderId === orderId);
}

/** One line a reader sees without reading the tests: tried and held. */
export function summary(area: string, tried: number, held: number, extra = ''): void {
  console.log(`reliability: ${area} tried ${tried} held ${held}${extra ? ` ${extra}` : ''}`);
}
