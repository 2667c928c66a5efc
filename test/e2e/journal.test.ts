// The Journal screen in the browser, through the real bridge and services: a refund made by the
// order service appears with its amount and a link to its order, filters narrow the list, the
// pending preset works, CSV export carries the filter; and with 100,000 entries the list shows
// the total, keeps only a window of rows in the DOM, and reaches the last rows.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';

let h: Harness;
let profileId: string;
let saleOrderId: string;
let refundRef: string;

beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no sandbox profile');
  profileId = sandbox.id;

  const { orders } = h.services;
  const sale = await orders.lookup(profileId, { client_orderid: 'demo-sale-1001' });
  saleOrderId = sale.orderId;
  refundRef = orders.openAction().clientOrderId;
  await orders.refund({
    profileId,
    orderid: saleOrderId,
    clientOrderId: refundRef,
    amount: '0.50',
    reason: 'Customer request',
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

const countText = () =>
  h.page
    .getByRole('status')
    .filter({ hasText: /entr|match|empty/ })
    .innerText();

describe('Journal screen', () => {
  it('shows the refund with its amount, status and a link to the refunded order', async () => {
    const { page } = h;
    await h.open('#/journal');
    // The shop's order id is shown (not Paydesk's own pd-... action id).
    const row = page.getByRole('row').filter({ hasText: 'demo-sale-1001' });
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/approved/);
    const text = await row.innerText();
    expect(text).toMatch(/0\.50 EUR/);
    expect(text).toMatch(/Partial refund/);
    expect(text).not.toContain(refundRef);
    // Local time with its offset (the day above the hour).
    expect(text).toMatch(/\d{4}-\d\d-\d\d\s\d\d:\d\d:\d\d [+-]\d\d:\d\d/);
    expect(text).toMatch(/Customer request/);
    expect(text).toMatch(/e2e-clerk/);
    const link = row.getByRole('link', { name: `Look up order ${saleOrderId}` });
    expect(await link.getAttribute('href')).toBe(`#/lookup/${saleOrderId}`);
    expect(await countText()).toBe('1 entry, newest first');
  });

  it('opens an entry in full: its fields, the redacted request, its answers in order', async () => {
    const { page } = h;
    await page.getByRole('button', { name: `Details of Partial refund ${refundRef}` }).click();
    const dialog = page.getByRole('dialog', { name: `Journal entry Partial refund ${refundRef}` });
    await dialog.getByText('Answers, in order').waitFor();
    const text = await dialog.innerText();
    for (const part of ['demo-sale-1001', 'anna.schmidt@example.com', 'RETURN', '0.50 EUR'])
      expect(text).toContain(part);
    const request = await dialog.getByRole('table').innerText();
    expect(request).toMatch(/client_orderid\s+pd-/);
    expect(request).toMatch(/amount\s+0\.50/);
    const answers = await dialog.getByRole('listitem').allInnerTexts();
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatch(/Written, being sent/);
    expect(answers[2]).toMatch(/Final: approved/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("finds the refund by the shop's order id and by the customer's e-mail", async () => {
    const { page } = h;
    const search = page.getByRole('search', { name: 'Search the journal' });
    const ref = search.getByLabel('Shop order id, orderid or action id');
    await ref.fill('demo-sale-1001');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('1 entry matches, newest first');
    await ref.fill('');
    await search.getByLabel('Customer email').fill('Anna.Schmidt@example.com');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('1 entry matches, newest first');
    await search.getByLabel('Customer email').fill('nobody@example.com');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('No journal entries match these filters.');
    await search.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(countText).toBe('1 entry, newest first');
  });

  it('filters by order, status and state, and checks the date range', async () => {
    const { page } = h;
    const search = page.getByRole('search', { name: 'Search the journal' });
    await search.getByLabel('Shop order id, orderid or action id').fill(saleOrderId);
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('1 entry matches, newest first');

    await search.getByLabel('Gateway status').selectOption('declined');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('No journal entries match these filters.');
    expect(await page.getByRole('row').count()).toBe(0);

    await search.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(countText).toBe('1 entry, newest first');

    await search.getByLabel('From (date)').fill('2030-01-02');
    await search.getByLabel('To (date, inclusive)').fill('2030-01-01');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => search.getByText('The end date is before the start date.').isVisible())
      .toBe(true);
    await search.getByLabel('To (date, inclusive)').fill('2030-01-03');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('No journal entries match these filters.');
    await search.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(countText).toBe('1 entry, newest first');
  });

  it('opens on the pending entries from #/journal/pending', async () => {
    const { page } = h;
    await h.open('#/journal/pending');
    const state = page.getByRole('search').getByLabel('State');
    await expect.poll(() => state.inputValue()).toBe('pending');
    await expect.poll(countText).toBe('No journal entries match these filters.');
    await h.open('#/journal');
    await expect.poll(() => state.inputValue()).toBe('');
  });

  it('exports the filtered journal as CSV and says where it went', async () => {
    const { page } = h;
    const search = page.getByRole('search');
    // Operations by what the clerk did: a cancel of a hold is not a refund.
    const operation = search.getByLabel('Operation');
    expect(await operation.locator('option').allInnerTexts()).toContain('Cancel hold');
    await operation.selectOption({ label: 'Partial refund' });
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('1 entry matches, newest first');
    await page.getByRole('button', { name: 'Export CSV…' }).click();
    await page.getByText(/^Exported 1 entry to .*paydesk-journal-.*\.csv/).waitFor();
    // A new search is a new question: the notice does not turn into "Exported 0 entries".
    await operation.selectOption({ label: 'Cancel hold' });
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(countText).toBe('No journal entries match these filters.');
    expect(await page.getByText(/^Exported/).count()).toBe(0);
    const csv = h.saved.find((f) => f.kind === 'csv');
    expect(csv?.name).toMatch(/^paydesk-journal-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (csv?.content ?? '').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^created_at,operator,/);
    expect(lines[1]).toContain(refundRef);
    expect(lines[1]).toContain(`,${saleOrderId},demo-sale-1001,0.50,EUR,Customer request,`);
    expect(lines[1]).toContain(',Partial refund,RETURN,');
    expect(lines[1]).toContain(',anna.schmidt@example.com,');
  });
});

describe('a journal of 100,000 entries', () => {
  const BULK = 100_000;
  beforeAll(() => {
    const insert = h.services.db.prepare(
      `INSERT INTO journal (client_orderid, profile_id, operator, operation, target_orderid, orderid,
         amount_minor, currency, reason, email, summary, state, status, created_at, updated_at, final_at,
         action, target_client_orderid)
       VALUES (?, ?, 'bulk-clerk', 'RETURN', ?, ?, ?, 'EUR', 'Customer request', ?, '{}', 'final',
         'approved', ?, ?, ?, 'refund', ?)`,
    );
    const start = Date.parse('2024-01-01T00:00:00Z');
    h.services.db.transaction(() => {
      for (let i = 0; i < BULK; i++) {
        const at = new Date(start + i * 60_000).toISOString();
        const ref = `bulk-${String(i).padStart(6, '0')}`;
        insert.run(
          ref,
          profileId,
          String(5_000_000 + i),
          String(6_000_000 + i),
          100 + (i % 9_000),
          `c${i}@example.com`,
          at,
          at,
          at,
          `shop-${ref}`,
        );
      }
    })();
    // 100,000 rows with every index and the history trigger: seconds alone, over the default
    // 30 s on a machine at load 10.
  }, 120_000);

  it('shows the total, renders only a window of rows, and scrolls to the last rows', async () => {
    const { page } = h;
    await h.open('#/journal');
    await page.reload();
    await expect.poll(countText, { timeout: 20_000 }).toBe('100,001 entries, newest first');
    const table = page.getByRole('table', { name: 'Journal' });
    expect(await table.getAttribute('aria-rowcount')).toBe(String(BULK + 2));
    // Newest first: the last bulk entry heads the list.
    await page.getByRole('row').filter({ hasText: 'bulk-099999' }).waitFor();
    const rendered = await page.getByRole('row').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(200);

    // The keyboard way to the end: focus the region, press End.
    const region = page.getByRole('region', { name: 'Journal entries' });
    await region.focus();
    await page.keyboard.press('End');
    const last = page.getByRole('row').filter({ hasText: 'demo-sale-1001' });
    await last.waitFor();
    await page.getByRole('row').filter({ hasText: 'bulk-000000' }).waitFor();
    expect(await last.getAttribute('aria-rowindex')).toBe(String(BULK + 2));
    expect(await last.innerText()).toMatch(/0\.50 EUR/);
    expect(await page.getByRole('row').count()).toBeLessThan(200);

    await page.keyboard.press('Home');
    await page.getByRole('row').filter({ hasText: 'bulk-099999' }).waitFor();
  });

  it('exports all of it with progress shown while it runs', async () => {
    const { page } = h;
    await h.open('#/journal');
    await expect.poll(countText, { timeout: 20_000 }).toBe('100,001 entries, newest first');
    const before = h.saved.length;
    await page.getByRole('button', { name: 'Export CSV…' }).click();
    await page.getByText(/^[\d,]+ of 100,001 entries written$/).waitFor();
    await page.getByText(/^Exported 100,001 entries to /).waitFor({ timeout: 60_000 });
    const csv = h.saved.slice(before).find((f) => f.kind === 'csv');
    const lines = (csv?.content ?? '').trimEnd().split('\r\n');
    expect(lines).toHaveLength(BULK + 2);
    expect(lines[1]).toContain('bulk-099999');
    expect(lines.at(-1)).toContain(refundRef);
  });
});
