// The Orders screen in Chromium against the real services, store and embedded sandbox: look an
// order up, refund, capture and void it through the form and its confirmation, and see what a
// clerk sees when the amount is wrong, the gateway refuses, or the gateway is down.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { lookUp, openOrder, orderHeading } from './shots/orders';

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

const journalTotal = async () => (await h.services.journal.search({}, 0, 10)).total;

/** The amounts table's row for `label`, e.g. "Refunded", as its text. */
async function amountRow(label: string): Promise<string> {
  const row = page.getByRole('row', { name: new RegExp(`^${label}\\b`) });
  return (await row.innerText()).replace(/\s+/g, ' ').trim();
}

async function waitForAmountRow(label: string, expected: string): Promise<void> {
  await page
    .getByRole('row', { name: new RegExp(`^${label}\\b`) })
    .filter({ hasText: expected })
    .waitFor();
}

const isFocused = (locator: ReturnType<Page['getByRole']>) =>
  locator.evaluate((element) => element === document.activeElement);

describe('Orders screen', () => {
  it('first start: looks up a demo sale on the Sandbox profile and refunds part of it, pending until final', async () => {
    await h.open('#/lookup');
    const profile = page.getByRole('combobox', { name: 'Profile' });
    expect(await profile.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text)).toBe(
      'Sandbox',
    );

    await lookUp(page, 'demo-sale-1001');
    expect(await orderHeading(page).textContent()).toBe('Order 1000001');
    expect(await isFocused(orderHeading(page))).toBe(true);
    const card = page.getByRole('region', { name: 'Order 1000001' });
    // 19.90 EUR was refunded outside Paydesk: never "Approved", never a made-up figure.
    expect(await card.textContent()).toContain('Partly refunded');
    expect(await card.textContent()).not.toContain('Approved');
    expect(await card.textContent()).toContain('444455 ••• 1111');
    expect(await amountRow('Refunded')).toBe('Refunded Unknown: the gateway knows');
    expect(await amountRow('Left to refund')).toBe('Left to refund Unknown: the gateway knows');

    await page.getByRole('button', { name: 'Refund…' }).click();
    const amount = page.getByRole('textbox', { name: /^Amount to refund/ });
    // No maximum is pre-filled: only the gateway knows what is left.
    expect(await amount.inputValue()).toBe('');
    expect(await isFocused(amount)).toBe(true);
    await amount.fill('10.00');
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('Customer request');
    await page.getByRole('button', { name: 'Review refund' }).click();

    const dialog = page.getByRole('dialog', { name: 'Refund 10.00 EUR?' });
    await dialog.waitFor();
    const confirmation = (await dialog.textContent()) ?? '';
    for (const part of ['1000001', '10.00 EUR', 'Customer request', 'Sandbox', 'cannot be undone'])
      expect(confirmation).toContain(part);
    expect(await journalTotal()).toBe(0);
    // Focus never starts on the button that moves money: it starts on "Go back".
    expect(await isFocused(dialog.getByRole('button', { name: 'Go back' }))).toBe(true);
    // The pending state may last only as long as the sandbox's processing: record every state
    // the page shows rather than race to catch it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenStates: string[] }).seenStates = seen;
      new MutationObserver(() => {
        const progress = document.querySelector('.action-progress');
        if (progress?.textContent) seen.push(progress.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await dialog.getByRole('button', { name: 'Refund 10.00 EUR' }).click();

    await page.getByText('Refund of 10.00 EUR approved.').waitFor();
    const seen = await page.evaluate(
      () => (window as unknown as { seenStates: string[] }).seenStates,
    );
    expect(seen.some((text) => text.includes('Sending the refund of 10.00 EUR'))).toBe(true);
    expect(seen.some((text) => /Waiting for final status.*It stays pending/.test(text))).toBe(true);

    const { rows, total } = await h.services.journal.search({ orderRef: '1000001' }, 0, 10);
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({
      operation: 'RETURN',
      targetOrderId: '1000001',
      amount: '10.00',
      currency: 'EUR',
      reason: 'Customer request',
      operator: 'e2e-clerk',
      state: 'final',
      status: 'approved',
    });
    expect(rows[0]!.clientOrderId).toMatch(/^pd-/);

    await waitForAmountRow('Refunded', 'at least 10.00 EUR');
    await waitForAmountRow('Left to refund', 'Unknown');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('region', { name: /^Refund order/ }).count()).toBe(0);
  });

  it('captures part of a preauth, and links to the capture order', async () => {
    await openOrder(h, 'demo-auth-2002');
    expect(await amountRow('Authorized')).toBe('Authorized (held) 59.00 EUR');
    // A preauth offers capture and cancel; refund and void are not offered at all.
    expect(await page.getByRole('button', { name: 'Refund…' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Capture…' }).click();
    const amount = page.getByRole('textbox', { name: /^Amount to capture/ });
    expect(await amount.inputValue()).toBe('59.00');
    await amount.fill('20.00');
    await page.getByRole('button', { name: 'Review capture' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Capture 20.00 EUR' }).click();

    await page.getByText('Capture of 20.00 EUR approved.').waitFor();
    await waitForAmountRow('Captured', '20.00 EUR');
    await waitForAmountRow('Left to capture', '39.00 EUR');

    const capture = (await h.services.journal.search({ orderRef: '1000011' }, 0, 10)).rows[0];
    expect(capture).toMatchObject({ operation: 'CAPTURE', amount: '20.00', status: 'approved' });
    const link = page.getByRole('link', { name: `Look up capture order ${capture!.orderId}` });
    await link.click();
    await page.getByRole('heading', { level: 2, name: `Order ${capture!.orderId}` }).waitFor();
    expect(await page.getByRole('region', { name: /^Order / }).textContent()).toContain(
      'Capture of a preauthorization',
    );
  });

  it('voids an approved sale with a reason; afterwards it can no longer be refunded', async () => {
    await openOrder(h, 'demo-sale-1003');
    await page.getByRole('button', { name: 'Void…' }).click();
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('Customer cancelled');
    await page.getByRole('button', { name: 'Review void' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('15.75 USD');
    await dialog.getByRole('button', { name: 'Void 15.75 USD' }).click();

    await page.getByText(/^Void .*approved\./).waitFor();
    await page.getByText('The order was voided; nothing was charged.').waitFor();
    expect(await page.getByRole('button', { name: 'Refund…' }).isDisabled()).toBe(true);
    expect((await h.services.journal.search({ orderRef: '1000003' }, 0, 10)).rows[0]).toMatchObject(
      {
        operation: 'VOID',
        reason: 'Customer cancelled',
        status: 'approved',
      },
    );
  });

  it('refuses a bad amount or a missing reason next to the field, and sends nothing', async () => {
    const before = await journalTotal();
    await openOrder(h, 'demo-auth-2003');
    await page.getByRole('button', { name: 'Capture…' }).click();
    const amount = page.getByRole('textbox', { name: /^Amount to capture/ });
    const review = page.getByRole('button', { name: 'Review capture' });

    for (const [typed, message] of [
      ['10.005', 'Use at most two decimals'],
      ['500.00', 'That is more than what is left: at most 420.00 USD.'],
      ['12345678901234', 'That amount is too large'],
      ['0.00', 'The amount must be more than 0.00.'],
      ['12,50', 'Write the amount with a dot'],
    ] as const) {
      await amount.fill(typed);
      await review.click();
      const error = page.getByRole('alert').filter({ hasText: message });
      await error.waitFor();
      expect(await amount.getAttribute('aria-invalid')).toBe('true');
      expect(await isFocused(amount)).toBe(true);
      expect(await page.getByRole('dialog').count()).toBe(0);
    }

    await openOrder(h, 'demo-sale-1002');
    await page.getByRole('button', { name: 'Refund…' }).click();
    await page.getByRole('textbox', { name: /^Amount to refund/ }).fill('5');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose a reason for the refund.' }).waitFor();
    expect(await isFocused(page.getByRole('combobox', { name: 'Reason' }))).toBe(true);
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('Other');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.getByRole('alert').filter({ hasText: 'write a note' }).waitFor();
    expect(await isFocused(page.getByRole('textbox', { name: /^Note/ }))).toBe(true);
    // Escape from the confirmation goes back to the form, and nothing is sent.
    await page.getByRole('textbox', { name: /^Note/ }).fill('Goodwill gesture agreed by phone.');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await journalTotal()).toBe(before);
  });

  it('shows the gateway refusing an over-refund of an order refunded outside Paydesk', async () => {
    // demo-sale-1002 (120.00 EUR) had 25.00 EUR refunded before Paydesk: only the gateway knows.
    await openOrder(h, 'demo-sale-1002');
    await page.getByRole('button', { name: 'Refund…' }).click();
    const typed = page.getByRole('textbox', { name: /^Amount to refund/ });
    // The clerk enters the amount (nothing is pre-filled here); the gateway decides.
    await typed.fill('120');
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('Duplicate charge');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund 120.00 EUR' }).click();

    const refusal = page.getByRole('alert').filter({ hasText: 'The refund was not made.' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('above what is left to return, 95.00 EUR');
    expect((await h.services.journal.search({ orderRef: '1000002' }, 0, 10)).rows[0]).toMatchObject(
      {
        operation: 'RETURN',
        amount: '120.00',
        state: 'refused',
      },
    );
    // A corrected attempt is a new action, with a new id; the refused one stays in the journal.
    await page.getByRole('button', { name: 'Change and send again' }).click();
    const amount = page.getByRole('textbox', { name: /^Amount to refund/ });
    expect(await amount.isEditable()).toBe(true);
  });

  it('answers "no order found" neutrally, and refuses an orderid that is not digits in the form', async () => {
    await h.open('#/lookup');
    await page.getByRole('combobox', { name: 'Look up by' }).selectOption('orderid');
    await page.getByRole('searchbox', { name: 'Order reference' }).fill('demo-sale-1001');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();
    await page.getByText(/orderid is digits only/).waitFor();

    await page.getByRole('searchbox', { name: 'Order reference' }).fill('999999');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();
    const answer = page.getByRole('status').filter({ hasText: 'No order found.' });
    await answer.waitFor();
    const text = (await answer.innerText()).trim();
    expect(text).toMatch(/orderid 999999/);
    // No red refusal, no internal code in the sentence a clerk reads.
    expect(text).not.toMatch(/GATEWAY_REFUSED|NOT_FOUND|\(/);
    expect(await page.locator('.notice-error').count()).toBe(0);
  });

  it('a JPY order on a production profile: yen without decimals, and the amount typed to confirm', async () => {
    const sandbox = (await h.services.profiles.list()).find((p) => p.embedded)!;
    await h.services.profiles.create({
      name: 'Shop live',
      environment: 'production',
      baseUrl: sandbox.baseUrl,
      endpointId: sandbox.endpointId,
      login: sandbox.login,
      controlKey: (await h.secrets.get(sandbox.id, 'control-key'))!,
    });
    await h.open('#/lookup');
    await page.reload();
    await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Shop live' });
    await lookUp(page, 'demo-sale-1010');
    expect(await amountRow('Amount')).toBe('Amount 5,000 JPY');
    expect(await amountRow('Left to refund')).toBe('Left to refund 5,000 JPY');

    await page.getByRole('button', { name: 'Refund…' }).click();
    const amount = page.getByRole('textbox', { name: /^Amount to refund/ });
    expect(await amount.inputValue()).toBe('5000');
    await amount.fill('0.50');
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('Customer request');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.getByRole('alert').filter({ hasText: 'JPY has no decimals' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    const before = await journalTotal();
    await amount.fill('1000');
    await page.getByRole('button', { name: 'Review refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund 1,000 JPY?' });
    await dialog.waitFor();
    const typed = dialog.getByRole('textbox', { name: /To confirm, type the amount/ });
    // Focus starts in the box, never on the button that moves money: Enter, Enter sends nothing.
    expect(await isFocused(typed)).toBe(true);
    const confirm = dialog.getByRole('button', { name: 'Refund 1,000 JPY' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await journalTotal()).toBe(before);
    await typed.fill('1000');
    await page.keyboard.press('Enter');
    await page.getByText('Refund of 1,000 JPY approved.').waitFor();
    await waitForAmountRow('Left to refund', '4,000 JPY');
    expect(
      (await h.services.journal.search({ orderRef: 'demo-sale-1010' }, 0, 10)).rows[0],
    ).toMatchObject({
      amount: '1000',
      currency: 'JPY',
      actionLabel: 'Partial refund',
    });
    await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Sandbox' });
  });

  it('lists recent orders on the Orders screen, found by e-mail or last four digits', async () => {
    await h.open('#/lookup');
    const recent = page.getByRole('region', { name: 'Recent orders' });
    await recent.getByRole('row').nth(1).waitFor();
    // Every order looked up above on the Sandbox profile is there.
    const all = await recent.getByRole('table').innerText();
    for (const ref of ['demo-sale-1001', 'demo-sale-1002', 'demo-auth-2003'])
      expect(all).toContain(ref);
    const find = recent.getByRole('searchbox', { name: 'Find a recent order' });
    await find.fill('LI.WEI');
    await expect.poll(() => recent.getByRole('row').count()).toBe(2);
    expect(await recent.getByRole('table').innerText()).toContain('demo-sale-1002');
    await find.fill('9999');
    await recent.getByText(/No recent order matches/).waitFor();
    await find.fill('4444');
    await recent.getByRole('link', { name: /\(demo-sale-1002\)$/ }).waitFor();
    expect(await recent.getByRole('table').innerText()).not.toContain('demo-sale-1003');
    await recent.getByRole('link', { name: /\(demo-sale-1002\)$/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Order 1000002' }).waitFor();
  });

  it('says clearly when the gateway of the active profile cannot be reached', async () => {
    await h.services.profiles.create({
      name: 'Closed port',
      environment: 'test',
      baseUrl: 'http://127.0.0.1:1/paynet',
      endpointId: '1',
      login: 'nobody',
      controlKey: 'X',
    });
    await h.open('#/lookup');
    // A change of the hash alone is no new page load; the profile list is read at load.
    await page.reload();
    await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Closed port' });
    await page.getByRole('searchbox', { name: 'Order reference' }).fill('demo-sale-1001');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();

    const error = page.getByRole('alert').filter({ hasText: 'refused the connection' });
    await error.waitFor();
    expect(await error.textContent()).toContain('could not be looked up');
    // The internal code is for support, under a disclosure, never in the sentence a clerk reads.
    const sentence = await error.evaluate((element) => {
      const copy = element.cloneNode(true) as HTMLElement;
      copy.querySelector('details')?.remove();
      return copy.textContent ?? '';
    });
    expect(sentence).not.toMatch(/\([A-Z_]{3,}\)/);
    expect(await error.locator('details summary').innerText()).toBe('Details for support');
    await page.getByRole('button', { name: 'Look up again' }).waitFor();

    await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Sandbox' });
    await orderHeading(page).waitFor();
  });
});
