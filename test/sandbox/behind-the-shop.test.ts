// Orders changed behind the shop's back (Sandbox.alterOrder), as a reconciliation must find
// them, and the request log that proves what a client sent: the status answer says the new
// status or amount, and every request that arrived is listed with the order it names.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { GatewayClient } from '../../main/gateway/client';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { CONTROL_KEY, TEST_CARD } from '../support/samples';
import { until } from '../support/wait';

const SHOP = { login: 'shop', endpointId: '1111' };
let sandbox: Sandbox;
let client: GatewayClient;

beforeEach(async () => {
  sandbox = await startSandbox({
    merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
    delayMs: 0,
    tickMs: 10,
    log: () => undefined,
  });
  client = new GatewayClient({ baseUrl: sandbox.baseUrl, ...SHOP, controlKey: CONTROL_KEY });
});
afterEach(async () => {
  client.close();
  await sandbox.close();
});

async function approvedSale(): Promise<string> {
  const ack = await client.call('SALE', {
    client_orderid: 'behind-1',
    amount: '10.00',
    currency: 'EUR',
    email: 'john@example.com',
    ipaddress: '203.0.113.7',
    order_desc: 'Order',
    ...TEST_CARD,
  });
  const orderid = ack.orderId!;
  await until(
    async () => (await client.status({ orderid })).status === 'approved',
    5_000,
    'the sale approved',
  );
  return orderid;
}

describe('alterOrder', () => {
  it('declines an approved order after the fact, with a reason its status gives', async () => {
    const orderid = await approvedSale();
    expect(sandbox.alterOrder(orderid, { status: 'declined', reason: 'Chargeback' }).status).toBe(
      'declined',
    );
    expect(await client.status({ orderid })).toMatchObject({
      status: 'declined',
      orderStage: 'sale_declined',
      errorMessage: 'Chargeback',
    });
  });

  it('changes an order amount, and refuses an order it does not hold or an amount of zero', async () => {
    const orderid = await approvedSale();
    sandbox.alterOrder(orderid, { amountMinor: 750n });
    expect(await client.status({ orderid })).toMatchObject({ amount: '7.50', currency: 'EUR' });
    expect(() => sandbox.alterOrder('999999', { status: 'declined' })).toThrow(
      'The sandbox holds no order 999999.',
    );
    expect(() => sandbox.alterOrder(orderid, { amountMinor: 0n })).toThrow(
      "An order's amount stays above zero.",
    );
  });
});

describe('requests()', () => {
  it('lists every request that arrived, with its operation and the order it names', async () => {
    const orderid = await approvedSale();
    const log = sandbox.requests();
    expect(log[0]).toEqual({ operation: 'SALE', clientOrderId: 'behind-1' });
    expect(log.slice(1).every((r) => r.operation === 'STATUS' && r.orderid === orderid)).toBe(true);
    expect(log.length).toBe(sandbox.received('SALE') + sandbox.received('STATUS'));
  });
});
