// The screens that move money or register something, in Chromium against the real bridge,
// services, SQLite and embedded sandbox: each screen's main path and its most likely mistake,
// and the grouped navigation from the keyboard.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import {
  confirmAndWait,
  DEMO_CARD_REF,
  field,
  fillPayLink,
  fillPayout,
  fillRecurring,
  nextJanuary31,
  useProductionProfile,
} from './shots/money';

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

/** Opens a screen afresh (a hash change to the same screen would keep its state). */
async function fresh(hash: string): Promise<void> {
  await h.open('#/journal');
  await h.open(hash);
}

const journalRows = async () => (await h.services.journal.search({}, 0, 1000)).rows;
const outcome = () => page.getByRole('region', { name: 'Outcome' });

describe('navigation', () => {
  it('groups the screens by what people do, each a link with its name, reachable by Tab', async () => {
    await h.open('#/lookup');
    const nav = page.getByRole('navigation', { name: 'Screens' });
    // The frame shows once main says the start is over (lifecycle.state): wait for it.
    await nav.getByRole('heading', { name: 'Settings' }).waitFor();
    const groups = await nav.getByRole('heading').allTextContents();
    expect(groups).toEqual([
      'Orders',
      'Payouts',
      'Cards and subscriptions',
      'Pay-by-link',
      'Tools',
      'Journal',
      'Admin',
      'Settings',
    ]);
    const payouts = nav.getByRole('list', { name: 'Payouts' });
    expect(await payouts.getByRole('link').count()).toBe(2);
    // From the profile switcher, Tab walks through the header to the navigation's links.
    await page.getByRole('combobox', { name: 'Profile' }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 20 && !reached.includes('Payment links'); i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(
          () => document.activeElement?.querySelector('.nav-label')?.textContent ?? '',
        ),
      );
    }
    expect(reached).toEqual(expect.arrayContaining(['Payouts', 'Rebill', 'Payment links']));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Payment links' }).waitFor();
  });
});

describe('Payouts', () => {
  it('one step to a typed card: confirmation shows it masked, approved, and the number is nowhere', async () => {
    await fresh('#/payouts');
    await fillPayout(page);
    await page.getByRole('button', { name: 'Send payout…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send this payout?' });
    const words = (await dialog.textContent()) ?? '';
    expect(words).toContain('card 444455******1111');
    expect(words).not.toContain('4444 5555 6666 1111');
    await confirmAndWait(page, /^Pay 25\.10 EUR$/, /Approved/);
    expect(await outcome().textContent()).toContain('Paid to card 444455******1111');
    // Once sent, the form itself no longer holds the full number.
    expect(await field(page, 'Card number').inputValue()).toBe('444455******1111');
    await page.getByRole('button', { name: 'New payout' }).click();
    expect(await field(page, 'Card number').inputValue()).toBe('');
    expect(JSON.stringify(await journalRows())).not.toContain('4444555566661111');
  });

  it('a mistyped card number is refused at its field, and nothing is sent', async () => {
    const before = (await journalRows()).length;
    await fresh('#/payouts');
    await fillPayout(page, { card: '4444 5555 6666 1112' });
    await page.getByRole('button', { name: 'Send payout…' }).click();
    // Checked before any confirmation opens, in the clerk's words.
    const error = page.getByRole('alert').filter({ hasText: 'This is not a card number' });
    await error.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await field(page, 'Card number').getAttribute('aria-invalid')).toBe('true');
    expect((await journalRows()).length).toBe(before);
  });

  it('two steps: the check waits on Payouts to pay with who checked it; paid once, then gone', async () => {
    await fresh('#/payouts');
    await fillPayout(page, { twoStep: true, amount: '48.20' });
    await page.getByRole('button', { name: 'Check payout…' }).click();
    await confirmAndWait(page, /^Check 48\.20 EUR$/, /Checked/);
    await outcome().getByRole('link', { name: 'Payouts to pay' }).click();
    const table = page.getByRole('table', { name: 'Checked payouts waiting to be paid' });
    const row = table.getByRole('row').filter({ hasText: '48.20 EUR' });
    expect(await row.textContent()).toContain('e2e-clerk');
    await row.getByRole('button', { name: /^Pay 48\.20 EUR to card 444455\*+1111$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay this payout?' });
    expect(await dialog.textContent()).toContain('checked by e2e-clerk');
    await confirmAndWait(page, /^Pay 48\.20 EUR$/, /Approved/);
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await row.waitFor({ state: 'detached' });
    const pays = (await journalRows()).filter((r) => r.operation === 'PAYOUT_V4_PAY');
    expect(pays).toHaveLength(1);
  });
});

describe('Card references', () => {
  it('reads a card reference: brand, masked number, expiry', async () => {
    await fresh(`#/card-info/${DEMO_CARD_REF}`);
    await page.getByRole('button', { name: 'Read card' }).click();
    const facts = page.getByRole('group', { name: `Card reference ${DEMO_CARD_REF}` });
    const text = (await facts.textContent()) ?? '';
    expect(text).toContain('444455******1111');
    expect(text).toContain('(valid)');
  });

  it('a reference that does not exist says so', async () => {
    await fresh('#/card-info');
    await field(page, 'Card reference').fill('123');
    await page.getByRole('button', { name: 'Read card' }).click();
    await page.getByRole('alert').filter({ hasText: 'No card reference 123' }).waitFor();
  });

  it('saves the card of an approved order and shows its reference; a declined order is refused', async () => {
    const sale = await h.services.orders.lookup(
      h.services.report.sandbox.running ? h.services.report.sandbox.profileId : '',
      {
        client_orderid: 'demo-sale-1003',
      },
    );
    await fresh('#/card-info');
    await field(page, 'orderid of the approved payment').fill(sale.orderId);
    await page.getByRole('button', { name: 'Save card…' }).click();
    await confirmAndWait(page, /^Save card$/, /Card reference \d+/);
    const declined = await h.services.orders.lookup(
      h.services.report.sandbox.running ? h.services.report.sandbox.profileId : '',
      { client_orderid: 'demo-sale-1005' },
    );
    await page.getByRole('button', { name: 'Save another card' }).click();
    await field(page, 'orderid of the approved payment').fill(declined.orderId);
    await page.getByRole('button', { name: 'Save card…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save card' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Only the card of an approved payment' })
      .waitFor();
  });
});

describe('Rebill', () => {
  it('charges a saved card; approved, it links to its order', async () => {
    await fresh(`#/rebill/${DEMO_CARD_REF}`);
    await field(page, 'Amount').fill('7.50');
    await field(page, 'Description').fill('Minibar, room 12');
    await page.getByRole('button', { name: 'Charge card…' }).click();
    await confirmAndWait(page, /^Charge 7\.50 EUR$/, /Approved/);
    await outcome()
      .getByRole('link', { name: /^Open order \d+$/ })
      .click();
    await page.getByRole('heading', { level: 2, name: /^Order \d+$/ }).waitFor();
  });

  it('without a description it says what to write, and sends nothing', async () => {
    const before = (await journalRows()).length;
    await fresh(`#/rebill/${DEMO_CARD_REF}`);
    await field(page, 'Amount').fill('7.50');
    await page.getByRole('button', { name: 'Charge card…' }).click();
    await page.getByRole('alert').filter({ hasText: 'Say what the charge is for' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await journalRows()).length).toBe(before);
  });
});

describe('Subscriptions', () => {
  it('previews the charges (month ends clamped) and sets the subscription up', async () => {
    await fresh(`#/recurring/${DEMO_CARD_REF}`);
    await fillRecurring(page);
    const preview = page.getByLabel('Schedule preview');
    const year = nextJanuary31().slice(0, 4);
    await preview.getByText(`${year}-02-28: 9.99 EUR`).waitFor();
    expect(await preview.getByRole('listitem').allTextContents()).toEqual(
      ['01-31', '02-28', '03-31', '04-30', '05-31', '06-30'].map((d) => `${year}-${d}: 9.99 EUR`),
    );
    await page.getByRole('button', { name: 'Set up subscription…' }).click();
    await confirmAndWait(page, /^Set up subscription$/, /Approved/);
    expect(await outcome().textContent()).toMatch(/Subscription \d+ \(recurring-payment-id\)/);
  });

  it('interval 0 and a start date in the past get a sentence at their field', async () => {
    await fresh(`#/recurring/${DEMO_CARD_REF}`);
    await fillRecurring(page, { interval: '0' });
    await page.getByRole('alert').filter({ hasText: '0 would charge again and again' }).waitFor();
    expect(await field(page, 'Every how many periods').getAttribute('aria-invalid')).toBe('true');
    await field(page, 'Every how many periods').fill('1');
    await page.getByLabel('First charge (optional)').fill('2020-01-31');
    await page
      .getByRole('alert')
      .filter({ hasText: 'The start date 2020-01-31 is in the past' })
      .waitFor();
  });
});

describe('Payment links', () => {
  it('makes a link with its QR code, copies it, and lists it open', async () => {
    await fresh('#/pay-link');
    await fillPayLink(page);
    await page.getByRole('button', { name: 'Make link…' }).click();
    await confirmAndWait(page, /^Make link$/, /The link is ready/);
    const box = page.getByRole('region', { name: 'The new link' });
    await box.locator('svg').waitFor(); // the QR encoder loads after the screen painted
    expect(await box.locator('svg').count()).toBe(1);
    const url = (await box.locator('.link-url').textContent()) ?? '';
    expect(url).toMatch(/\/sandbox\/form\//);
    await box.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => h.clipboard.at(-1)).toBe(url);
    const row = page
      .getByRole('table', { name: 'Payment links' })
      .getByRole('row')
      .filter({ hasText: '42.00 EUR' });
    expect(await row.textContent()).toContain('Open, waiting for the customer');

    // An open link moves no money: the header does not count it pending, and the Journal
    // shows it open, not processing.
    const link = (await journalRows()).find((r) => r.operation === 'SALEFORM');
    const pending = await h.services.journal.search({ pending: true }, 0, 1000);
    expect(pending.rows.map((r) => r.clientOrderId)).not.toContain(link?.clientOrderId);
    await expect
      .poll(() => page.locator('.pending-counter').innerText())
      .toBe(`${pending.total} pending`);
    await fresh('#/journal');
    const journalRow = page
      .getByRole('row')
      .filter({ hasText: 'Payment link' })
      .filter({ hasText: '42.00' });
    await expect.poll(() => journalRow.locator('.status-pill').innerText()).toBe('open');
  });

  it('a customer e-mail that is not one is refused at its field', async () => {
    await fresh('#/pay-link');
    await page
      .getByRole('button', { name: 'New link' })
      .click()
      .catch(() => undefined);
    await fillPayLink(page, { email: 'anna' });
    await page.getByRole('button', { name: 'Make link…' }).click();
    await page.getByRole('alert').filter({ hasText: 'e-mail address' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await field(page, 'Customer’s e-mail').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('3-D Secure waiting', () => {
  it('an order waiting for 3-D Secure shows the address the customer must open, and copies it', async () => {
    await fresh('#/lookup/demo-sale-1006');
    const notice = page.getByText('3-D Secure pending.');
    await notice.waitFor();
    const address = (await page.locator('.three-ds-address code').textContent()) ?? '';
    expect(address).toMatch(/\/sandbox\/acs\//);
    await page.getByRole('button', { name: 'Copy address' }).click();
    await expect.poll(() => h.clipboard.at(-1)).toBe(address);
  });
});

describe('Save card from an order', () => {
  it('an approved order offers "Save card…"; once saved, the order names its card reference', async () => {
    await fresh('#/lookup/demo-sale-1002');
    await page.getByRole('link', { name: 'Save card…' }).click();
    expect(await field(page, 'orderid of the approved payment').inputValue()).toMatch(/^\d+$/);
    await page.getByRole('button', { name: 'Save card…' }).click();
    await confirmAndWait(page, /^Save card$/, /Card reference \d+/);
    const ref = (await outcome().locator('strong').last().textContent()) ?? '';
    await fresh('#/lookup/demo-sale-1002');
    await page.getByRole('link', { name: `card reference ${ref}` }).waitFor();
  });
});

describe('On a production profile', () => {
  const dialog = () => page.getByRole('dialog');
  const typedBox = () => dialog().getByRole('textbox', { name: /^To confirm, type/ });
  const isFocused = (locator: ReturnType<Page['getByRole']>) =>
    locator.evaluate((element) => element === document.activeElement);

  afterAll(async () => {
    await page.locator('#active-profile').selectOption({ label: 'Sandbox' });
  });

  it('a payout needs its amount typed: focus starts in the box and Enter alone sends nothing', async () => {
    await useProductionProfile(h);
    await fresh('#/payouts');
    await fillPayout(page, { amount: '12.50' });
    await page.getByRole('button', { name: 'Send payout…' }).click();
    const typed = dialog().getByRole('textbox', { name: 'To confirm, type the amount: 12.50' });
    await typed.waitFor();
    expect(await isFocused(typed)).toBe(true);
    const pay = dialog().getByRole('button', { name: 'Pay 12.50 EUR' });
    expect(await pay.isDisabled()).toBe(true);
    const before = (await journalRows()).length;
    await page.keyboard.press('Enter');
    await typed.fill('12.05');
    await page.keyboard.press('Enter');
    expect((await journalRows()).length).toBe(before);
    expect(await pay.isDisabled()).toBe(true);
    // As a clerk writes it: without the trailing zero.
    await typed.fill('12.5');
    await page.keyboard.press('Enter');
    await outcome()
      .getByText(/Approved/)
      .first()
      .waitFor();
    expect((await journalRows()).filter((r) => r.operation === 'PAYOUT')).toContainEqual(
      expect.objectContaining({ amount: '12.50', currency: 'EUR' }),
    );
  });

  it('rebill, subscription and payment link ask for the amount; saving a card for the order id', async () => {
    await useProductionProfile(h, { withKey: true });
    const before = (await journalRows()).length;
    const asks = async (opening: string, button: string, fill: () => Promise<void>) => {
      await fresh(opening);
      await fill();
      await page.getByRole('button', { name: button }).click();
      await typedBox().waitFor();
      const asked = await dialog().locator('label').textContent();
      expect(await isFocused(typedBox())).toBe(true);
      // Escape goes back to the form as it was; nothing was sent.
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      return asked;
    };
    expect(
      await asks(`#/rebill/${DEMO_CARD_REF}`, 'Charge card…', async () => {
        await field(page, 'Amount').fill('7.5');
        await field(page, 'Description').fill('Minibar, room 12');
      }),
    ).toBe('To confirm, type the amount: 7.50');
    expect(
      await asks(`#/recurring/${DEMO_CARD_REF}`, 'Set up subscription…', () => fillRecurring(page)),
    ).toBe('To confirm, type the amount: 9.99');
    expect(await asks('#/pay-link', 'Make link…', () => fillPayLink(page))).toBe(
      'To confirm, type the amount: 42.00',
    );
    expect(
      await asks('#/card-info', 'Save card…', () =>
        field(page, 'orderid of the approved payment').fill('1000003'),
      ),
    ).toBe('To confirm, type the order id: 1000003');
    expect((await journalRows()).length).toBe(before);
  });
});
