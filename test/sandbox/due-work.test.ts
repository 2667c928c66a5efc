// When due work runs: an answer never reports an order as it was before its due time, even if
// the background tick has not come round yet (the request path settles what is due), and the
// background tick alone makes orders final and sends callbacks with no request at all.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { saleFields, startHarness, type Harness } from './harness';
import { sleep } from '../support/wait';

let h: Harness | undefined;
let receiver: Server | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
});

describe('due work', () => {
  it('reports the final status once the delay has passed, though the tick has not run', async () => {
    // A tick of an hour: only the request path can make the sale final within this test.
    h = await startHarness({ delayMs: 30, tickMs: 3_600_000 });
    const sale = await h.call('SALE', saleFields('123'));
    await sleep(60);
    expect((await h.client.status({ orderid: sale.orderId ?? '' })).status).toBe('approved');
  });

  it('makes orders final and calls back on the tick, with no request', async () => {
    const hits: string[] = [];
    receiver = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('OK');
    });
    await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
    h = await startHarness({ delayMs: 0, tickMs: 10 });
    const sale = await h.call('SALE', saleFields('123', { server_callback_url: url }));
    // Bounded wait: 300 x 10 ms.
    for (let i = 0; i < 300 && hits.length === 0; i++) await sleep(10);
    expect(hits).toHaveLength(1);
    expect(new URL(hits[0] ?? '', url).searchParams.get('orderid')).toBe(sale.orderId);
    expect(new URL(hits[0] ?? '', url).searchParams.get('status')).toBe('approved');
  });
});
