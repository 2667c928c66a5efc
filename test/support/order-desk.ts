// The one way a test wires a desk's money services on a database, as PaydeskServices wires
// them: the shop's control key in an in-memory keychain, the connections read from the desk's
// own profiles, one action path, and the order service on it. The desks of the integration,
// reliability and team tests, and the processes their fixtures run, are all built from this.
// It loads no sandbox and no key maker, so a fixture's process starts quickly.

import { MemorySecretStore } from '../../main/secrets';
import { ActionPath } from '../../main/services/action/path';
import { Connections, type ClientFactory } from '../../main/services/connection';
import { OrderService, type OrderServiceOptions } from '../../main/services/orders/orders';
import type { JournalPort } from '../../main/store/journal/port';
import type { Db } from '../../main/store/sqlite/database';
import { Profiles } from '../../main/store/sqlite/profiles';
import { CONTROL_KEY } from './samples';

export interface OrderDeskOptions extends Partial<OrderServiceOptions> {
  /** The profile whose control key the keychain holds. */
  profileId: string;
  /** The shop's by default; a fixture's process is given it by its test. */
  controlKey?: string;
  /** How a gateway client is made (timeouts, a client of the test's own). */
  clientFactory?: ClientFactory;
}

export interface OrderDesk {
  secrets: MemorySecretStore;
  profiles: Profiles;
  connections: Connections;
  path: ActionPath;
  orders: OrderService;
}

export async function orderDesk(
  db: Db,
  port: JournalPort,
  { profileId, controlKey = CONTROL_KEY, clientFactory, ...service }: OrderDeskOptions,
): Promise<OrderDesk> {
  const secrets = new MemorySecretStore();
  await secrets.set(profileId, 'control-key', controlKey);
  const profiles = new Profiles(db);
  const connections = new Connections(profiles, secrets, clientFactory);
  const options: OrderServiceOptions = { operator: 'ann', ...service };
  const path = new ActionPath(port, connections, options);
  const orders = new OrderService(db, port, connections, path);
  return { secrets, profiles, connections, path, orders };
}
