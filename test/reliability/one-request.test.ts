// Issue 9, reproduction 2: one action id, one request, ever. Against a gateway that takes a
// repeat as a new refund and shows a recorded refund in `status` only after a while:
// - a refund that timed out, retried at once with the same action id;
// - two calls with one action id at once, in one process;
// - the same in two Paydesk processes on one database (two connections, two leases);
// each gives exactly one request at the gateway. And a request that provably never left
// (connection refused) is closed at once as not sent, while a cut connection is not.

import { createServer } from 'node:net';

import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { TransportError } from '../../main/gateway/errors';
import { sendPrepared } from '../../main/gateway/transport';
import { ServiceError } from '../../main/services/errors';
import { approvedOrder, shopClient } from '../support/shop';
import {
  CONTROL_KEY,
  createDesk,
  reversalsOf,
  startUnforgivingSandbox,
  summary,
  unforgiving,
  type Desk,
} from './support';
import { until } from '../support/wait';

const tally = { tried: 0, held: 0 };
afterAll(() => summary('one-action-one-request', tally.tried, tally.held));

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

async function round(check: () => Promise<void>): Promise<void> {
  tally.tried++;
  await check();
  tally.held++;
}

describe('one action id, one request', () => {
  it('a refund that timed out and is retried at once is sent once', async () => {
    const paydesk = await desk.start({ timeoutMs: 1_000, quarantineMs: 10_000 });
    const direct = shopClient(sandbox, CONTROL_KEY);
    for (let i = 0; i < 3; i++) {
      await round(async () => {
        const saleId = await approvedOrder(direct, 'SALE', '10.00');
        // The gateway takes 1.5 s before it records a refund; the client gives up after 1 s.
        sandbox.misbehave(unforgiving(400, { latencyMs: 1_500, operations: ['RETURN'] }));
        const { clientOrderId } = paydesk.service.openAction();
        await expect(paydesk.service.refund(refund(saleId, clientOrderId))).rejects.toMatchObject({
          code: 'TIMEOUT',
        });
        expect(paydesk.journal.get(clientOrderId)?.state).toBe('unknown');
        // The retry: the gateway has no record yet, so nothing is sent, and the clerk is told.
        await expect(paydesk.service.refund(refund(saleId, clientOrderId))).rejects.toThrow(
          ServiceError,
        );
        expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
          state: 'final',
          status: 'approved',
        });
        expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
        sandbox.misbehave(unforgiving(400));
      });
    }
    await paydesk.stop();
  }, 40_000);

  it('two calls with one action id at once send one request, and both hear the outcome', async () => {
    const paydesk = await desk.start();
    const direct = shopClient(sandbox, CONTROL_KEY);
    sandbox.misbehave(unforgiving(400, { latencyMs: 300, operations: ['RETURN'] }));
    for (let i = 0; i < 5; i++) {
      await round(async () => {
        const saleId = await approvedOrder(direct, 'SALE', '10.00');
        const { clientOrderId } = paydesk.service.openAction();
        const first = paydesk.service.refund(refund(saleId, clientOrderId));
        // The second call comes while the first is being sent.
        await until(() => paydesk.journal.get(clientOrderId) !== undefined, 5_000, 'the entry');
        const second = paydesk.service.refund(refund(saleId, clientOrderId));
        const [a, b] = await Promise.all([first, second]);
        expect(a.replayed).toBe(false);
        expect(b).toMatchObject({ replayed: true, entry: { clientOrderId } });
        await paydesk.service.settled(clientOrderId);
        expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
      });
    }
    await paydesk.stop();
  }, 40_000);

  it('a second process with the same action id waits for the first, and never sends', async () => {
    const one = await desk.start();
    const two = await desk.start();
    const direct = shopClient(sandbox, CONTROL_KEY);
    sandbox.misbehave(unforgiving(400, { latencyMs: 300, operations: ['RETURN'] }));
    for (let i = 0; i < 3; i++) {
      await round(async () => {
        const saleId = await approvedOrder(direct, 'SALE', '10.00');
        const { clientOrderId } = one.service.openAction();
        const first = one.service.refund(refund(saleId, clientOrderId));
        await until(() => two.journal.get(clientOrderId) !== undefined, 5_000, 'the entry');
        expect(two.journal.get(clientOrderId)?.leaseOwner).toBeTruthy();
        const second = two.service.refund(refund(saleId, clientOrderId));
        const [a, b] = await Promise.all([first, second]);
        expect(a.replayed).toBe(false);
        expect(b.replayed).toBe(true);
        expect(b.entry.state).not.toBe('sending');
        await one.service.settled(clientOrderId);
        expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
      });
    }
    await two.stop();
    await one.stop();
  }, 40_000);
});

describe('sent or never left', () => {
  it('a refused connection closes the entry as not sent; a cut one leaves it unsettled', async () => {
    const paydesk = await desk.start({ quarantineMs: 60_000 });
    const direct = shopClient(sandbox, CONTROL_KEY);
    const saleId = await approvedOrder(direct, 'SALE', '10.00');

    // A cut connection after the gateway recorded it: it may have arrived, so it is unsettled.
    sandbox.misbehave(unforgiving(400, { dropAnswerShare: 1, operations: ['RETURN'] }));
    const cut = paydesk.service.openAction().clientOrderId;
    await expect(paydesk.service.refund(refund(saleId, cut))).rejects.toThrow(TransportError);
    expect(paydesk.journal.get(cut)).toMatchObject({ state: 'unknown' });
    sandbox.misbehave(unforgiving(400));
    expect(await paydesk.service.settled(cut)).toMatchObject({
      state: 'final',
      status: 'approved',
    });

    await paydesk.stop();
    tally.tried++;
    tally.held++;
  }, 30_000);

  it('a refund whose connection is refused is closed as not sent, and nothing reached the gateway', async () => {
    // The route to the gateway breaks between the status read and the refund: the refund's
    // connection goes to a port nothing listens on (the real transport, a real refused socket).
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
    await expect(paydesk.service.refund(refund(saleId, clientOrderId))).rejects.toMatchObject({
      code: 'TRANSPORT',
      neverLeft: true,
      message: expect.stringMatching(/nothing was sent/) as unknown,
    });
    expect(paydesk.journal.get(clientOrderId)).toMatchObject({
      state: 'refused',
      errorCode: 'NOT_SENT',
    });
    const view = await paydesk.service.lookup(desk.profileId, { orderid: saleId });
    expect(view).toMatchObject({ refunded: '0.00', remainingRefundable: '10.00', pending: [] });
    expect(reversalsOf(sandbox, saleId)).toHaveLength(0);
    await paydesk.stop();
    tally.tried++;
    tally.held++;
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
