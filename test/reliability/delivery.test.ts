// What a money screen may say after a failed send, decided in main and carried over the bridge
// (services/errors.ts deliveryOf). Against a sandbox that forgives nothing: a refund whose
// answer came after the client gave up, and its "Try again" that finds no record yet, may both
// be at the gateway (they were: the gateway records the refund); a refund a rule stopped, and
// one whose connection was refused, sent nothing. The renderer's sendFailure reads only the mark.

import { createServer } from 'node:net';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { toBridgeError } from '../../main/bridge';
import { sendPrepared } from '../../main/gateway/transport';
import type { Sandbox } from '../../main/sandbox';
import { BridgeError, sendFailure } from '../../renderer/src/api';
import { approvedOrder, shopClient } from '../support/shop';
import {
  CONTROL_KEY,
  createDesk,
  reversalsOf,
  startUnforgivingSandbox,
  unforgiving,
  type Desk,
} from './support';

let sandbox: Sandbox;
let desk: Desk;

beforeEach(async () => {
  sandbox = await startUnforgivingSandbox(400);
  desk = createDesk(sandbox);
});

afterEach(async () => {
  await sandbox.close();
  desk.dispose();
});

const refund = (orderid: string, clientOrderId: string) => ({
  profileId: desk.profileId,
  orderid,
  clientOrderId,
  amount: '2.00',
  reason: 'Damaged',
});

/** What the bridge hands the renderer for a failed call, and what a screen makes of it. */
async function shown(call: Promise<unknown>) {
  const error = await call.then(
    () => {
      throw new Error('the call was expected to fail');
    },
    (e: unknown) => e,
  );
  const data = toBridgeError(error);
  return { code: data.code, delivery: data.delivery, screen: sendFailure(new BridgeError(data)) };
}

describe('what a failed send may be called', () => {
  it('a refund answered after the client gave up, and its Try again, may both have reached the gateway', async () => {
    const paydesk = await desk.start({ timeoutMs: 1_000, quarantineMs: 10_000 });
    const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    // The gateway answers in 1.5 s; the client gives up after 1 s.
    sandbox.misbehave(unforgiving(400, { latencyMs: 1_500, operations: ['RETURN'] }));
    const { clientOrderId } = paydesk.service.openAction();
    expect(await shown(paydesk.service.refund(refund(saleId, clientOrderId)))).toEqual({
      code: 'TIMEOUT',
      delivery: 'may-have-reached',
      screen: 'unknown',
    });
    // Try again: the gateway has no record yet. Still not "Nothing was sent".
    expect(await shown(paydesk.service.refund(refund(saleId, clientOrderId)))).toEqual({
      code: 'UNSETTLED',
      delivery: 'may-have-reached',
      screen: 'unknown',
    });
    expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
    await paydesk.stop();
  }, 30_000);

  it('a second refund while the first is in flight is stopped by the rule: nothing was sent', async () => {
    const paydesk = await desk.start({ timeoutMs: 1_000, quarantineMs: 10_000 });
    const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    sandbox.misbehave(unforgiving(400, { latencyMs: 1_500, operations: ['RETURN'] }));
    const first = paydesk.service.openAction().clientOrderId;
    await shown(paydesk.service.refund(refund(saleId, first)));
    const second = paydesk.service.openAction().clientOrderId;
    expect(await shown(paydesk.service.refund(refund(saleId, second)))).toEqual({
      code: 'PENDING',
      delivery: 'nothing-sent',
      screen: 'stopped',
    });
    expect(paydesk.journal.get(second)).toBeUndefined();
    await paydesk.service.settled(first);
    expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
    await paydesk.stop();
  }, 30_000);

  it('a refund whose connection is refused sent nothing, and says so', async () => {
    const closed = await closedPort();
    const paydesk = await desk.start({
      clientOptions: {
        send: (request, options) =>
          sendPrepared(
            request.url.includes('/api/v2/return/')
              ? { ...request, url: request.url.replace(/:\d+\//, `:${closed}/`) }
              : request,
            options,
          ),
      },
    });
    const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    const { clientOrderId } = paydesk.service.openAction();
    expect(await shown(paydesk.service.refund(refund(saleId, clientOrderId)))).toEqual({
      code: 'TRANSPORT',
      delivery: 'nothing-sent',
      screen: 'stopped',
    });
    expect(reversalsOf(sandbox, saleId)).toHaveLength(0);
    await paydesk.stop();
  }, 30_000);
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
