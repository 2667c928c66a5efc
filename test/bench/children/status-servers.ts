// Rows 1 and 5: in a process of its own, the sandbox (one merchant, one approved sale) and a
// bare node:http server that answers every request with the exact bytes the sandbox answers to
// that sale's signed `status`. Prints both as ready-to-send requests, then serves until killed.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { GatewayClient } from '../../../main/gateway/client';
import { sendPrepared } from '../../../main/gateway/transport';
import { startSandbox } from '../../../main/sandbox';
import type { Shot } from '../lib/load';
import { CONTROL_KEY, TEST_CARD } from '../../support/samples';

const shop = { login: 'shop', endpointId: '1111', controlKey: CONTROL_KEY };

const sandbox = await startSandbox({ merchants: [shop], delayMs: 0, log: () => undefined });
const client = new GatewayClient({ baseUrl: sandbox.baseUrl, ...shop });
const sale = await client.call('SALE', {
  client_orderid: 'bench-status-1',
  amount: '10.42',
  currency: 'EUR',
  email: 'john@example.com',
  ipaddress: '203.0.113.7',
  order_desc: 'Order',
  ...TEST_CARD,
});
// Control-checksum signed, no nonce: the same request may be sent any number of times.
const status = client.prepare('STATUS', { orderid: sale.orderId ?? '' });
await sendPrepared(status); // runs the due work: the sale is approved from here on
const answer = await sendPrepared(status);
if (answer.status !== 200 || !answer.body.includes('approved')) {
  throw new Error(`the sandbox's status answer was unexpected: ${answer.status} ${answer.body}`);
}

const bare = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': answer.contentType,
      'Content-Length': Buffer.byteLength(answer.body),
    });
    res.end(answer.body);
  });
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePort = (bare.address() as AddressInfo).port;

const shots: { sandbox: Shot; bare: Shot; credentials: typeof shop & { baseUrl: string } } = {
  sandbox: { url: status.url, headers: status.headers, body: status.body },
  bare: {
    url: `http://127.0.0.1:${barePort}${new URL(status.url).pathname}`,
    headers: status.headers,
    body: status.body,
  },
  credentials: { ...shop, baseUrl: sandbox.baseUrl },
};
console.log(JSON.stringify(shots));

process.once('SIGTERM', () => {
  bare.close();
  bare.closeAllConnections();
  void sandbox.close().then(() => process.exit(0));
});
