// A person in Chromium completes a hosted payment form with a 3-D Secure challenge, and the ACS
// page of a direct 3DS sale, and is sent back to the shop with a valid checksum.
//
// Driven by playwright-core with Debian's Chromium. playwright-core is loaded at run time, so
// this file compiles and is skipped (with a note) until `npm install -D playwright-core` is done;
// the few calls it makes are typed below to keep the test free of `any`.

import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { verifyCallback } from '../../main/gateway/callback';
import type { GatewayClient } from '../../main/gateway/client';
import { CARD, coid, saleFields, startHarness, CONTROL_KEY, type Harness } from './harness';

interface Locator {
  fill(value: string): Promise<void>;
  click(): Promise<void>;
  textContent(): Promise<string | null>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  getByLabel(text: string, options?: { exact?: boolean }): Locator;
  getByRole(role: 'button' | 'heading', options: { name: string | RegExp }): Locator;
  waitForURL(url: RegExp, options?: { timeout?: number }): Promise<void>;
  locator(selector: string): Locator;
}
interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Chromium {
  launch(options: { executablePath: string; args: string[]; headless: boolean }): Promise<Browser>;
}

const CHROMIUM = '/usr/bin/chromium';

async function loadChromium(): Promise<Chromium | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  try {
    const name = 'playwright-core';
    const mod = (await import(/* @vite-ignore */ name)) as { chromium?: Chromium };
    return mod.chromium;
  } catch {
    return undefined;
  }
}

const chromium = await loadChromium();
if (!chromium)
  console.warn(
    'browser.test.ts skipped: install playwright-core (npm install -D playwright-core) and /usr/bin/chromium to run it.',
  );

/** The shop: its return page records the POST the customer's browser brings back. */
interface Shop {
  url: string;
  returns: Record<string, string>[];
  server: Server;
}

async function startShop(): Promise<Shop> {
  const shop: Shop = { url: '', returns: [], server: createServer() };
  shop.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST')
        shop.returns.push(
          Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
        );
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Shop</title><h1>Thank you for your order</h1>');
    });
  });
  await new Promise<void>((resolve) => shop.server.listen(0, '127.0.0.1', resolve));
  shop.url = `http://127.0.0.1:${(shop.server.address() as AddressInfo).port}/return`;
  return shop;
}

describe.skipIf(!chromium)('a person in Chromium', () => {
  let h: Harness;
  let shop: Shop;
  let browser: Browser;
  let client: GatewayClient;

  beforeAll(async () => {
    h = await startHarness({ delayMs: 0 });
    client = h.client;
    shop = await startShop();
    browser = await (chromium as Chromium).launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--headless',
      ],
      headless: true,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await new Promise<void>((resolve) => (shop ? shop.server.close(() => resolve()) : resolve()));
  });

  it('pays on the hosted form, passes the 3DS challenge, and lands back at the shop', async () => {
    const form = await h.call('SALEFORM', {
      client_orderid: coid('web'),
      amount: '10.42',
      currency: 'EUR',
      email: 'a@example.com',
      redirect_url: shop.url,
    });
    const page = await browser.newPage();
    await page.goto(form.redirectUrl);
    await page.getByLabel('Card number').fill(CARD.credit_card_number);
    await page.getByLabel('Name on card').fill(CARD.card_printed_name);
    await page.getByLabel('Expiry month (MM)').fill(CARD.expire_month);
    await page.getByLabel('Expiry year (YYYY)').fill(CARD.expire_year);
    await page.getByLabel('CVV2').fill('321');
    await page.getByRole('button', { name: 'Pay 10.42 EUR' }).click();

    await page.waitForURL(/\/sandbox\/acs\//);
    await page.getByLabel('One-time code').fill('1234');
    await page.getByRole('button', { name: 'Confirm' }).click();

    await page.waitForURL(/\/return$/, { timeout: 15_000 });
    expect(await page.getByRole('heading', { name: /Thank you/ }).textContent()).toContain(
      'Thank you',
    );
    const back = shop.returns.find((r) => r.orderid === form.orderId) ?? {};
    expect(back).toMatchObject({
      status: 'approved',
      client_orderid: form.clientOrderId,
      amount: '10.42',
    });
    expect(verifyCallback(back, CONTROL_KEY)).toEqual({ valid: true });
    expect((await client.status({ orderid: form.orderId })).status).toBe('approved');
  });

  it('completes the ACS page a direct 3DS sale hands to the browser', async () => {
    const fields = saleFields('321', { redirect_url: shop.url });
    const sale = await h.call('SALE', fields);
    const status = await client.status({ orderid: sale.orderId });
    const page = await browser.newPage();
    await page.goto(status.redirectTo ?? '');
    await page.getByLabel('One-time code').fill('0000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect(await page.locator('[role=alert]').textContent()).toContain('That code is wrong');
    await page.getByLabel('One-time code').fill('1234');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/return$/, { timeout: 15_000 });
    expect(shop.returns.find((r) => r.orderid === sale.orderId)?.status).toBe('approved');
  });
});
