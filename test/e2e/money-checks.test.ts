// Every money screen checks every field before its confirmation opens, in Chromium against the
// real bridge, services, SQLite and embedded sandbox: "1e3", "10,00", "-1", "0.001" EUR,
// "1,234.50" and empty fields never reach a confirmation (nothing is journaled), all problems
// show at once beside their fields, and a good amount is confirmed normalised (12 -> 12.00 EUR;
// 5000 JPY; 12.345 KWD on Orders).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { DEMO_CARD_REF, field, fillPayLink, fillPayout, fillRecurring } from './shots/money';
import { lookUp } from './shots/orders';

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

const BAD_AMOUNTS = ['1e3', '10,00', '-1', '0.001', '1,234.50'];

async function fresh(hash: string): Promise<void> {
  await h.open('#/journal');
  await h.open(hash);
}

const journalTotal = async () => (await h.services.journal.search({}, 0, 1)).total;
const dialogs = () => page.getByRole('dialog').count();
const problems = () => page.locator('.field-error').allTextContents();

/** Presses the form's button; the problems are drawn, and no confirmation opens. */
async function submitRefused(button: string): Promise<string[]> {
  await page.getByRole('button', { name: button }).click();
  await page.locator('.field-error').first().waitFor();
  expect(await dialogs()).toBe(0);
  return problems();
}

interface Screen {
  hash: string;
  button: string;
  fill: () => Promise<void>;
  amountLabel: string;
  /** The confirmation's title and the normalised amount it must show for "12". */
  confirmed: RegExp;
}

const SCREENS: Record<string, Screen> = {
  Payouts: {
    hash: '#/payouts',
    button: 'Send payout…',
    fill: () => fillPayout(page),
    amountLabel: 'Amount',
    confirmed: /Pay 12\.00 EUR/,
  },
  Rebill: {
    hash: '#/rebill',
    button: 'Charge card…',
    fill: async () => {
      await field(page, 'Card reference').fill(DEMO_CARD_REF);
      await field(page, 'Description').fill('Minibar, room 12');
    },
    amountLabel: 'Amount',
    confirmed: /Charge 12\.00 EUR/,
  },
  Subscriptions: {
    hash: '#/recurring',
    button: 'Set up subscription…',
    fill: async () => {
      await fillRecurring(page);
      await field(page, 'Card reference').fill(DEMO_CARD_REF);
    },
    amountLabel: 'Amount per charge',
    confirmed: /12\.00 EUR/,
  },
  'Payment links': {
    hash: '#/pay-link',
    button: 'Make link…',
    fill: () => fillPayLink(page),
    amountLabel: 'Amount',
    confirmed: /12\.00 EUR/,
  },
};

describe('every money screen checks before it asks', () => {
  for (const [name, screen] of Object.entries(SCREENS)) {
    it(`${name}: bad amounts and empty fields never reach a confirmation; 12 is confirmed as 12.00`, async () => {
      await fresh(screen.hash);
      const before = await journalTotal();
      await field(page, screen.amountLabel).fill('');
      await field(page, 'Description').fill('');
      const empty = await submitRefused(screen.button);
      // All at once: the amount and the description, each beside its field.
      expect(empty.length).toBeGreaterThanOrEqual(2);
      expect(empty).toContain('Enter an amount.');
      expect(empty.join(' ')).not.toMatch(/order_desc|destination-card-no|client_orderid/);

      await screen.fill();
      for (const bad of BAD_AMOUNTS) {
        await field(page, screen.amountLabel).fill(bad);
        const found = await submitRefused(screen.button);
        // One problem, beside the amount.
        expect(found, bad).toHaveLength(1);
        expect(await field(page, screen.amountLabel).getAttribute('aria-invalid'), bad).toBe(
          'true',
        );
      }
      await field(page, screen.amountLabel).fill('12');
      await page.getByRole('button', { name: screen.button }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toMatch(screen.confirmed);
      await dialog.getByRole('button', { name: 'Go back' }).click();
      expect(await journalTotal()).toBe(before);
    }, 60_000);
  }

  it('Payouts: an empty bank payout lists every missing field and never says "Pay EUR to account **** at ()"', async () => {
    await fresh('#/payouts');
    await page.getByRole('radio', { name: 'Bank account' }).check();
    await field(page, 'Amount').fill('');
    const found = await submitRefused('Send payout…');
    for (const words of [
      /account number/,
      /name of the receiving bank/,
      /BIC/,
      /receiver’s name/,
      /Enter an amount/,
      /what the payout is for/,
    ])
      expect(found.join('\n')).toMatch(words);
    expect(await page.getByText(/Pay EUR to account/).count()).toBe(0);
  });

  it('Orders: a refund with a bad amount stays on the form; 12.345 KWD is confirmed as typed', async () => {
    await h.open('#/lookup');
    await lookUp(page, 'demo-sale-1011');
    await page.getByRole('button', { name: 'Refund…' }).click();
    const amount = page.getByRole('textbox', { name: /^Amount to refund/ });
    await amount.fill('');
    const empty = await submitRefused('Review refund');
    // The amount and the reason at once.
    expect(empty).toHaveLength(2);
    await page.getByRole('combobox', { name: 'Reason' }).selectOption('Customer request');
    // KWD has three decimals: 0.001 is an amount there, 0.0001 is not.
    for (const bad of ['1e3', '10,00', '-1', '0.0001']) {
      await amount.fill(bad);
      expect(await submitRefused('Review refund'), bad).toHaveLength(1);
    }
    // An amount copied as Paydesk shows figures: refused, with the amount to write instead.
    await amount.fill('1,234.50');
    expect(await submitRefused('Review refund')).toEqual([
      'Write the amount without thousands separators: 1234.50.',
    ]);
    await amount.fill('12.345');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.getByRole('dialog', { name: 'Refund 12.345 KWD?' }).waitFor();
    // Escape leaves the dialog, then the panel, and sends nothing.
    await page.keyboard.press('Escape');
    await expect.poll(dialogs).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#action-panel').count()).toBe(0);
    expect((await h.services.journal.search({ orderRef: 'demo-sale-1011' }, 0, 10)).total).toBe(0);
  });
});
