// The order page in Chromium against the real services, store and embedded sandbox, opened by
// its link (#/order/<profile>/<orderid>) as the reconciliation and other screens link to it:
// who made the order and the customer's e-mail, what is left as the gateway named it with its
// time, and the timeline of Paydesk's refunds with their outcomes, each linking to its entry. A
// refund made on another profile of the same account names that profile.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { localTimeWithOffset } from '../../common/time';
import { stableScreenshot } from '../harness/fixed-clock';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { openOrderPage, prepareOrderPage } from './shots/order-page';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness();
  page = h.page;
  page.setDefaultTimeout(15_000);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

const text = async (locator: ReturnType<Page['getByRole']>) =>
  (await locator.innerText()).replace(/\s+/g, ' ').trim();

/** A second profile on the same sandbox account: one order, seen through two profiles. */
async function otherShop(): Promise<{ sandboxId: string; otherId: string }> {
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded)!;
  const existing = (await h.services.profiles.list()).find((p) => p.name === 'Other shop');
  const other =
    existing ??
    (await h.services.profiles.create({
      name: 'Other shop',
      environment: 'test',
      baseUrl: sandbox.baseUrl,
      endpointId: sandbox.endpointId,
      login: sandbox.login,
      controlKey: (await h.secrets.get(sandbox.id, 'control-key')) ?? '',
    }));
  return { sandboxId: sandbox.id, otherId: other.id };
}

describe('the order page', () => {
  it('shows what the gateway said is left with its time, and every refund of Paydesk with its outcome', async () => {
    const { profileId, orderId } = await prepareOrderPage(h);
    const refused = (await h.services.journal.search({ orderRef: orderId }, 0, 10)).rows.find(
      (r) => r.state === 'refused',
    );
    expect(refused?.errorMessage).toMatch(/what is left to return, 30\.00 EUR/);
    await openOrderPage(h, profileId, orderId);

    const card = page.getByRole('region', { name: `Order ${orderId}`, exact: true });
    const left = await text(card.getByRole('row', { name: /^Left to refund\b/ }));
    expect(left).toBe(
      `Left to refund 20.00 EUR the gateway said 30.00 EUR at ${localTimeWithOffset(refused!.finalAt)}, less 10.00 EUR refunded from Paydesk since`,
    );
    expect(await text(card.getByRole('row', { name: /^Refunded\b/ }))).toBe(
      'Refunded at least 29.90 EUR',
    );
    const cardText = await text(card);
    expect(cardText).toContain('Created Not given by the gateway');
    expect(cardText).toContain('Customer e-mail');
    expect(cardText).not.toContain('Unknown: the gateway knows');

    const history = page.getByRole('region', { name: 'History of this order' });
    const items = history.getByRole('listitem');
    expect(await items.count()).toBe(5);
    expect(await text(items.nth(0))).toMatch(
      /Refund of 49\.90 EUR by \S+ Refused Reason: Returned goods Refused by the gateway: .*30\.00 EUR/,
    );
    expect(await text(items.nth(1))).toMatch(/The gateway said 30\.00 EUR was left to refund/);
    expect(await text(items.nth(2))).toMatch(
      /Partial refund of 10\.00 EUR by \S+ Approved Reason: Damaged goods Approved by the gateway\./,
    );
    expect(await text(items.nth(3))).toMatch(
      /^Time not given by the gateway Refunds made outside Paydesk/,
    );
    expect(await text(items.nth(4))).toMatch(/The gateway’s state, as read now: Partly refunded/);

    // Each entry links to itself in the Journal, opened.
    await history
      .getByRole('link', { name: `Open journal entry ${refused!.clientOrderId}` })
      .click();
    await page.getByRole('dialog').getByText(refused!.clientOrderId).first().waitFor();
  });

  it('opened by its link while another profile is active, makes the link’s profile the active one', async () => {
    const { sandboxId } = await otherShop();
    await h.open('#/lookup');
    await page.reload(); // the profile list as it is now
    const profile = page.getByRole('combobox', { name: 'Profile' });
    await profile.selectOption({ label: 'Other shop' });
    const order = await h.services.orders.lookup(sandboxId, { client_orderid: 'demo-sale-1003' });
    await openOrderPage(h, sandboxId, order.orderId);
    expect(await profile.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text)).toBe(
      'Sandbox',
    );
  });

  it('names the other profile a refund of the order was made on', async () => {
    const { sandboxId, otherId } = await otherShop();
    const order = await h.services.orders.lookup(otherId, { client_orderid: 'demo-sale-1002' });
    const { clientOrderId } = h.services.orders.openAction();
    await h.services.orders.refund({
      profileId: otherId,
      orderid: order.orderId,
      clientOrderId,
      amount: '2.00',
      reason: 'Damaged goods',
    });
    await h.services.orders.settled(clientOrderId);
    await openOrderPage(h, sandboxId, order.orderId);
    const history = page.getByRole('region', { name: 'History of this order' });
    await history.getByText('(on “Other shop”)').waitFor();
    const item = history.getByRole('listitem').filter({ hasText: clientOrderId });
    expect(await text(item)).toMatch(
      /^\S.* Partial refund of 2\.00 EUR by e2e-clerk \(on “Other shop”\) Approved Reason: Damaged goods/,
    );
    const shots = process.env.PAYDESK_SHOTS;
    if (shots) {
      mkdirSync(shots, { recursive: true });
      await stableScreenshot(page, {
        path: join(shots, 'order-page-other-profile.png'),
        fullPage: true,
      });
    }
  });
});
