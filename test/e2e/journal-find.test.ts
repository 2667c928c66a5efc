// The Journal screen as a clerk uses it all day, in the browser through the real bridge and
// services: it finds refunds by the amount as written, the card's last four digits, part of an
// e-mail (the field lets "maria" through) and the start of a shop order id; it shows the totals
// per currency of what it lists (checked against the refunds made here; while they take long, that
// they are being added up) and each entry's profile
// by name; shop order ids are never cut; the list takes most of the window's height; and at 200%
// zoom of a 1280x800 window (a 640x400 CSS viewport) the Amount and Status columns stay on
// screen and the navigation folds away.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';

let h: Harness;

/** The refunds made here: the shop's order id, the amount, and what the sandbox's order holds. */
const REFUNDS = [
  { ref: 'demo-sale-1001', amount: '14.25', currency: 'EUR', lastFour: '1111' },
  { ref: 'demo-sale-1002', amount: '1.25', currency: 'EUR', lastFour: '4444' },
  { ref: 'demo-sale-1003', amount: '5.00', currency: 'USD', lastFour: '1111' },
] as const;

beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no sandbox profile');
  const { orders } = h.services;
  for (const r of REFUNDS) {
    const order = await orders.lookup(sandbox.id, { client_orderid: r.ref });
    const { clientOrderId } = orders.openAction();
    await orders.refund({
      profileId: sandbox.id,
      orderid: order.orderId,
      clientOrderId,
      amount: r.amount,
      reason: 'Customer request',
    });
    await orders.settled(clientOrderId);
  }
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

const rows = () => h.page.getByRole('row').filter({ hasText: /demo-sale-/ });

async function search(fields: Record<string, string>) {
  const { page } = h;
  await page.getByRole('button', { name: 'Clear filters' }).click();
  for (const [label, value] of Object.entries(fields))
    await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

/** The shop order ids the list shows, in order. */
async function shown(): Promise<string[]> {
  const texts = await rows().allInnerTexts();
  return texts.map((t) => /demo-sale-\d+/.exec(t)?.[0] ?? t);
}

describe('the Journal screen finds what a clerk searches', () => {
  it('finds by amount, last four, part of an e-mail and the start of a shop order id', async () => {
    const { page } = h;
    await h.open('#/journal');
    await expect.poll(shown, { timeout: 20_000 }).toHaveLength(3);

    await search({ Amount: '14.25' });
    await expect.poll(shown).toEqual(['demo-sale-1001']);

    await search({ 'Card’s last four': '1111' });
    await expect.poll(shown).toEqual(['demo-sale-1003', 'demo-sale-1001']);

    // A plain text field: the browser does not ask for an "@".
    const email = page.getByLabel('Customer email', { exact: true });
    expect(await email.getAttribute('type')).toBe('text');
    await search({ 'Customer email': 'maria' });
    await expect.poll(shown).toEqual(['demo-sale-1003']);

    await search({ 'Shop order id, orderid or action id': 'demo-sale-100' });
    await expect.poll(shown).toHaveLength(3);

    await search({ 'Amount from': '1.25', 'Amount to': '5', Currency: 'eur' });
    await expect.poll(shown).toEqual(['demo-sale-1002']);
  });

  it('shows the totals per currency of what it lists, and each profile by name', async () => {
    const { page } = h;
    await search({});
    const totals = page.getByRole('region', { name: 'Totals of these entries' });
    // 14.25 + 1.25 EUR, and 5.00 USD: never added together.
    await expect.poll(() => totals.innerText()).toMatch(/EUR\s+15\.50 EUR approved \(2 entries\)/);
    expect(await totals.innerText()).toMatch(/USD\s+5\.00 USD approved \(1 entry\)/);
    await search({ 'Card’s last four': '1111' });
    await expect.poll(() => totals.innerText()).toMatch(/EUR\s+14\.25 EUR approved \(1 entry\)/);

    const row = rows().first();
    expect(await row.innerText()).toContain('Sandbox');
  });

  it('says the totals are being added up while they take long, and shows them when they come', async () => {
    const { page } = h;
    const { journal } = h.services;
    const read = journal.totals.bind(journal);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // A journal large enough to take a while: the service answers only when let go.
    journal.totals = async (filter) => {
      await held;
      return read(filter);
    };
    try {
      await search({ 'Card’s last four': '4444' });
      await expect
        .poll(() => page.getByRole('status').allInnerTexts())
        .toContain('Adding up the totals of these entries…');
      // The list does not wait for them.
      expect(await shown()).toEqual(['demo-sale-1002']);
      release();
      const totals = page.getByRole('region', { name: 'Totals of these entries' });
      await expect.poll(() => totals.innerText()).toMatch(/EUR\s+1\.25 EUR approved \(1 entry\)/);
      expect(await page.getByRole('status').allInnerTexts()).not.toContain(
        'Adding up the totals of these entries…',
      );
    } finally {
      release();
      journal.totals = read;
    }
  });

  it('never cuts a shop order id, and gives the list most of the window', async () => {
    const { page } = h;
    await search({});
    await expect.poll(shown).toHaveLength(3);
    const cut = await page
      .locator('.journal-row:not(.journal-head) > :nth-child(4)')
      .evaluateAll((cells) =>
        cells
          .filter((c) => c.scrollWidth > c.clientWidth || c.scrollHeight > c.clientHeight + 1)
          .map((c) => c.textContent),
      );
    expect(cut).toEqual([]);
    const list = await page.getByRole('region', { name: 'Journal entries' }).boundingBox();
    expect(list!.height).toBeGreaterThan(800 * 0.6);
  });

  it('at 200% zoom keeps Amount and Status on screen and folds the navigation', async () => {
    const { page } = h;
    // A 1280x800 window at 200% zoom lays out a 640x400 CSS viewport.
    await page.setViewportSize({ width: 640, height: 400 });
    try {
      await expect.poll(shown).toHaveLength(3);
      for (const name of ['Amount', 'Status', 'Shop order id']) {
        const box = await page.getByRole('columnheader', { name, exact: true }).boundingBox();
        expect.soft(box, name).not.toBeNull();
        expect.soft(box!.x + box!.width, name).toBeLessThanOrEqual(640);
      }
      const nav = page.getByRole('navigation', { name: 'Screens' });
      expect(await nav.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Screens' }).click();
      expect(await nav.isVisible()).toBe(true);
      await nav.getByRole('link', { name: /Journal/ }).click();
      await expect.poll(() => nav.isVisible()).toBe(false);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
