// Paydesk's side of the integration tests for the money-moving services: a real SQLite file,
// the in-memory SecretStore, one action path shared by every service (as the app wires it),
// and the shop's sandbox with the shop's RSA public key on file, so v4 operations verify.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GatewayClient } from '../../main/gateway/client';
import { generateKeyPair, type KeyMaterial } from '../../main/keys';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import type { ActionPath } from '../../main/services/action/path';
import { CardService } from '../../main/services/cards';
import type { Connections } from '../../main/services/connection';
import type { OrderService } from '../../main/services/orders/orders';
import { PayLinkService } from '../../main/services/paylinks';
import { PayoutService } from '../../main/services/payouts';
import { RecurringService } from '../../main/services/recurring';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import type { JournalPort } from '../../main/store/journal/port';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { Profiles } from '../../main/store/sqlite/profiles';
import { SHOP } from './shop';
import { CONTROL_KEY } from './samples';
import { orderDesk } from './order-desk';

let sharedKey: Promise<KeyMaterial> | undefined;
/** One RSA-2048 key per test file: generating one is the slow part. */
export const shopKey = () => (sharedKey ??= generateKeyPair(2048));

export interface Desk {
  dir: string;
  db: Db;
  /** The SQLite journal, read synchronously by the tests' checks. */
  journal: Journal;
  /** The same journal as the services see it. */
  port: JournalPort;
  sandbox: Sandbox;
  /** A profile with the RSA key, and one without (v2 only). */
  profileId: string;
  profileWithoutKey: string;
  path: ActionPath;
  /** The desk's profiles and keychain, for a second person's action path on the same desk. */
  connections: Connections;
  orders: OrderService;
  payouts: PayoutService;
  cards: CardService;
  recurring: RecurringService;
  payLinks: PayLinkService;
  /** The shop's own client, for customer payments made directly at the gateway. */
  direct: GatewayClient;
  close(): Promise<void>;
}

export async function openDesk(now?: () => Date): Promise<Desk> {
  const key = await shopKey();
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-desk-'));
  const db = openDatabase(join(dir, 'paydesk.sqlite'));
  const journal = new Journal(db);
  const port = new SqliteJournalPort(db, journal);
  const sandbox = await startSandbox({
    merchants: [{ ...SHOP, controlKey: CONTROL_KEY, publicKeyPem: key.publicKeySpkiPem }],
    delayMs: 50,
    tickMs: 20,
    log: () => undefined,
  });
  const profiles = new Profiles(db);
  const base = { environment: 'sandbox' as const, baseUrl: sandbox.baseUrl, ...SHOP };
  const profileId = profiles.create({ name: 'Shop', ...base }).id;
  profiles.attachKey(profileId, key.fingerprint);
  const profileWithoutKey = profiles.create({ name: 'Shop v2', ...base }).id;
  const { secrets, connections, path, orders } = await orderDesk(db, port, {
    profileId,
    wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
  });
  await secrets.set(profileWithoutKey, 'control-key', CONTROL_KEY);
  await secrets.set(profileId, 'rsa-private-key', key.privateKeyPkcs8Pem);
  const cards = new CardService(path, connections, now);
  return {
    dir,
    db,
    journal,
    port,
    sandbox,
    profileId,
    profileWithoutKey,
    path,
    connections,
    orders,
    payouts: new PayoutService(path),
    cards,
    recurring: new RecurringService(path, cards, now),
    payLinks: new PayLinkService(path),
    direct: new GatewayClient({ baseUrl: sandbox.baseUrl, ...SHOP, controlKey: CONTROL_KEY }),
    async close() {
      await path.close();
      await sandbox.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
