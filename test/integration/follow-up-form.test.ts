// What Paydesk puts on the wire for a capture, refund, cancel and void (issue 10.6): amount and
// currency whenever Paydesk knows them, so the checksum is the same under the spec's reading
// and the operator's PHP library's (docs/protocol.md). The order service talks to the real
// sandbox through a recording pass-through on 127.0.0.1 that keeps each request body as sent.

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { GatewayClient } from '../../main/gateway/client';
import type { Sandbox } from '../../main/sandbox';
import type { OrderService } from '../../main/services/orders/orders';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';
import { CONTROL_KEY } from '../support/samples';
import { orderDesk } from '../support/order-desk';

const fast = { delayAfter: () => 25, giveUpAfterMs: 20_000 };
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

let dir: string;
let db: Db;
let sandbox: Sandbox;
let recorder: Server;
let service: OrderService;
let profileId: string;
let direct: GatewayClient;
/** Every request that passed through, in order: the operation's path and the decoded body. */
let wire: { path: string; body: Record<string, string> }[];

/** Forwards each request to the sandbox unchanged, and its answer back unchanged. */
async function startRecorder(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      wire.push({
        path: req.url ?? '',
        body: Object.fromEntries(new URLSearchParams(body)),
      });
      const headers: Record<string, string> = {};
      for (const name of ['accept', 'content-type', 'authorization']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      fetch(new URL(req.url ?? '/', target), { method: req.method ?? 'POST', headers, body })
        .then(async (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'text/plain',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeEach(async () => {
  wire = [];
  dir = mkdtempSync(join(tmpdir(), 'paydesk-wire-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  sandbox = await startShopSandbox(CONTROL_KEY);
  recorder = await startRecorder(sandbox.baseUrl);
  const sandboxUrl = new URL(sandbox.baseUrl);
  const port = (recorder.address() as AddressInfo).port;
  profileId = new Profiles(db).create({
    name: 'Sandbox via recorder',
    environment: 'sandbox',
    baseUrl: `http://127.0.0.1:${port}${sandboxUrl.pathname.replace(/\/$/, '')}`,
    endpointId: '1111',
    login: 'shop',
  }).id;
  service = (await orderDesk(db, new SqliteJournalPort(db), { profileId, wait: fast })).orders;
  direct = shopClient(sandbox, CONTROL_KEY);
});

afterEach(async () => {
  await service.close();
  await new Promise<void>((resolve) => {
    recorder.close(() => resolve());
    recorder.closeAllConnections();
  });
  await sandbox.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The one follow-up Paydesk sent under this action id. */
function sentFor(clientOrderId: string) {
  const sent = wire.filter(
    (r) => r.body.client_orderid === clientOrderId && !r.path.includes('/status/'),
  );
  expect(sent).toHaveLength(1);
  return sent[0] ?? { path: '', body: {} };
}

/** The checksum both readings agree on once amount and currency are sent. */
const bothReadings = (body: Record<string, string>, cents: string) =>
  sha1(`shop${body.client_orderid}${body.orderid}${cents}${body.currency}${CONTROL_KEY}`);

describe('Paydesk sends amount and currency on', () => {
  it('a full capture: the whole remaining hold', async () => {
    const orderId = await approvedOrder(direct, 'PREAUTH', '30.00');
    const first = service.openAction().clientOrderId;
    await service.capture({ profileId, orderid: orderId, clientOrderId: first, amount: '12.50' });
    await service.settled(first);
    const rest = service.openAction().clientOrderId;
    await service.capture({ profileId, orderid: orderId, clientOrderId: rest });
    expect(await service.settled(rest)).toMatchObject({ state: 'final', status: 'approved' });

    const sent = sentFor(rest);
    expect(sent.path).toMatch(/\/api\/v2\/capture\/1111$/);
    expect(sent.body).toMatchObject({ orderid: orderId, amount: '17.50', currency: 'EUR' });
    expect(sent.body.control).toBe(bothReadings(sent.body, '1750'));
  });

  it('a full refund of a sale', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '10.42');
    const { clientOrderId } = service.openAction();
    await service.refund({ profileId, orderid: orderId, clientOrderId, reason: 'Damaged' });
    expect(await service.settled(clientOrderId)).toMatchObject({ status: 'approved' });

    const sent = sentFor(clientOrderId);
    expect(sent.path).toMatch(/\/api\/v2\/return\/1111$/);
    expect(sent.body).toMatchObject({ amount: '10.42', currency: 'EUR', comment: 'Damaged' });
    expect(sent.body.control).toBe(bothReadings(sent.body, '1042'));
  });

  it("a cancel of a preauth: the hold it releases, as the operator's PHP library sends it", async () => {
    const orderId = await approvedOrder(direct, 'PREAUTH', '50.00');
    const { clientOrderId } = service.openAction();
    await service.cancel({ profileId, orderid: orderId, clientOrderId, reason: 'Order cancelled' });
    expect(await service.settled(clientOrderId)).toMatchObject({ status: 'approved' });

    const sent = sentFor(clientOrderId);
    expect(sent.path).toMatch(/\/api\/v2\/return\/1111$/);
    expect(sent.body).toMatchObject({ amount: '50.00', currency: 'EUR' });
    expect(sent.body.control).toBe(bothReadings(sent.body, '5000'));
    expect(sandbox.orders('1111').find((o) => o.orderid === orderId)?.orderStage).toBe(
      'auth_cancelled',
    );
  });
});

describe('Paydesk sends no amount on', () => {
  it('a void', async () => {
    const orderId = await approvedOrder(direct, 'SALE', '8.00');
    const { clientOrderId } = service.openAction();
    await service.void({ profileId, orderid: orderId, clientOrderId, reason: 'Duplicate order' });
    expect(await service.settled(clientOrderId)).toMatchObject({ status: 'approved' });
    const sent = sentFor(clientOrderId);
    expect(sent.path).toMatch(/\/api\/v2\/void\/1111$/);
    expect(sent.body).not.toHaveProperty('amount');
    expect(sent.body).not.toHaveProperty('currency');
  });
});
