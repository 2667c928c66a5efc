// A shop's side of the integration tests: a sandbox with one merchant, and customer payments
// made directly at the gateway and left to become approved.

import { GatewayClient } from '../../main/gateway/client';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import type { Db } from '../../main/store/sqlite/database';
import { Profiles } from '../../main/store/sqlite/profiles';
import { TEST_CARD } from './samples';

export const SHOP = { login: 'shop', endpointId: '1111' } as const;

/**
 * The sandbox with the shop as its merchant; orders become final after 50 ms (`delayMs`; 0: a
 * `status` asked right after an order was made shows it final). `forgiveNothing`: a repeated
 * request is a new one, as a real gateway may count it (money paths are tested so).
 */
export function startShopSandbox(
  controlKey: string,
  options: { forgiveNothing?: boolean; delayMs?: number } = {},
): Promise<Sandbox> {
  return startSandbox({
    merchants: [{ ...SHOP, controlKey }],
    delayMs: options.delayMs ?? 50,
    tickMs: 20,
    log: () => undefined,
    ...(options.forgiveNothing ? { misbehaviour: { noDedupe: true } } : {}),
  });
}

export function shopClient(sandbox: Sandbox, controlKey: string): GatewayClient {
  return new GatewayClient({ baseUrl: sandbox.baseUrl, ...SHOP, controlKey });
}

/** A customer's payment at the gateway, waited for until approved; returns its orderid. */
export async function approvedOrder(
  client: GatewayClient,
  operation: 'SALE' | 'PREAUTH',
  amount: string,
): Promise<string> {
  const ack = await client.call(operation, {
    client_orderid: `shop-${operation}-${Math.random().toString(36).slice(2)}`,
    amount,
    currency: 'EUR',
    email: 'john@example.com',
    ipaddress: '203.0.113.7',
    order_desc: 'Order',
    ...TEST_CARD,
  });
  const orderId = ack.orderId;
  if (!orderId) throw new Error('the gateway gave the payment no orderid');
  for (let i = 0; i < 200; i++) {
    if ((await client.status({ orderid: orderId })).status === 'approved') return orderId;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the payment did not become approved');
}

/** The shop's profile on a desk's database, pointed at `sandbox`; returns its id. */
export function shopProfile(db: Db, sandbox: Sandbox): string {
  return new Profiles(db).create({
    name: 'Sandbox',
    environment: 'sandbox',
    baseUrl: sandbox.baseUrl,
    endpointId: SHOP.endpointId,
    login: SHOP.login,
  }).id;
}
