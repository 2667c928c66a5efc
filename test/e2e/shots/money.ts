// Screenshots of the screens that move money or register something, for the README: each form
// filled in with demo data, and the lists with what the demo run made. The payouts and links
// shown are made in the embedded sandbox of a fresh first start.

import { join } from 'node:path';

import type { Page } from 'playwright-core';

import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

/** The demo card reference the sandbox seeds (from demo-sale-1001). */
export const DEMO_CARD_REF = '7770001';

export const field = (page: Page, name: string | RegExp) =>
  page.getByRole('textbox', { name, exact: typeof name === 'string' });

/** Fills the one-step or two-step payout form with a card destination. */
export async function fillPayout(
  page: Page,
  { twoStep = false, card = '4444 5555 6666 1111', amount = '25.10' } = {},
): Promise<void> {
  if (twoStep) await page.getByRole('radio', { name: 'Two steps: check now, pay later' }).check();
  await field(page, 'Card number').fill(card);
  await field(page, 'Receiver’s first name').fill('Anna');
  await field(page, 'Receiver’s last name').fill('Berg');
  await field(page, 'Amount').fill(amount);
  await field(page, 'Purpose (optional)').fill('Deposit refund');
  await field(page, 'Description').fill('Deposit back for booking 4411');
}

/**
 * Switches the window to a production profile named "Shop live" on the sandbox's address (made
 * once): every confirmation that moves money then asks for the amount or id to be typed.
 */
export async function useProductionProfile(h: Harness, { withKey = false } = {}): Promise<void> {
  const profiles = await h.services.profiles.list();
  const sandbox = profiles.find((p) => p.embedded);
  let live = profiles.find((p) => p.name === 'Shop live');
  if (sandbox && !live) {
    live = await h.services.profiles.create({
      name: 'Shop live',
      environment: 'production',
      baseUrl: sandbox.baseUrl,
      endpointId: sandbox.endpointId,
      login: sandbox.login,
      controlKey: (await h.secrets.get(sandbox.id, 'control-key')) ?? '',
    });
  }
  // A subscription's form needs an RSA key (CREATE_RP_V4 is signed with it). The embedded
  // sandbox knows only the Sandbox profile's key, so this one reaches no further than the form.
  if (withKey && live && !live.hasPrivateKey) await h.services.keys.generate(live.id, 2048);
  // The profile list is read when the window starts.
  await h.open('#/lookup');
  await h.page.reload();
  await h.page.locator('#active-profile').selectOption({ label: 'Shop live' });
}

/** Confirms the dialog on screen and waits for the outcome to say `words`. */
export async function confirmAndWait(page: Page, confirm: RegExp, words: RegExp): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: confirm }).click();
  await page.getByRole('region', { name: 'Outcome' }).getByText(words).first().waitFor();
}

export async function shootMoney(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  const paths: string[] = [];
  const shot = async (name: string) => {
    const path = join(dir, name);
    await page.mouse.move(0, 0);
    if (!(await page.getByRole('dialog').isVisible()))
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    await stableScreenshot(page, { path, caret: 'hide', animations: 'disabled' });
    paths.push(path);
  };
  await page.setViewportSize({ width: 1280, height: 1150 });

  // Every field is checked before a confirmation opens: all problems at once, beside each field.
  await h.open('#/payouts');
  await page.getByRole('radio', { name: 'Bank account' }).check();
  await field(page, 'Amount').fill('10,00');
  await page.getByRole('button', { name: 'Send payout…' }).click();
  await page.locator('.field-error').first().waitFor();
  await shot('payout-problems.png');

  await page.getByRole('radio', { name: 'Card number' }).check();
  await fillPayout(page);
  await page.getByRole('button', { name: 'Send payout…' }).click();
  await page.getByRole('dialog').waitFor();
  await shot('payouts.png');
  await confirmAndWait(page, /^Pay /, /Approved/);

  await page.getByRole('button', { name: 'New payout' }).click();
  await fillPayout(page, { twoStep: true, amount: '310.00' });
  await page.getByRole('button', { name: 'Check payout…' }).click();
  await confirmAndWait(page, /^Check /, /Checked/);
  await shot('payout-check.png');

  await page.getByRole('button', { name: 'New payout' }).click();
  await fillPayout(page, { twoStep: true, amount: '48.20' });
  await page.getByRole('button', { name: 'Check payout…' }).click();
  await confirmAndWait(page, /^Check /, /Checked/);
  await h.open('#/payouts-to-pay');
  await page.getByRole('table', { name: 'Checked payouts waiting to be paid' }).waitFor();
  await shot('payouts-to-pay.png');

  await h.open(`#/card-info/${DEMO_CARD_REF}`);
  await page.getByRole('button', { name: 'Read card' }).click();
  await page.getByRole('group', { name: `Card reference ${DEMO_CARD_REF}` }).waitFor();
  await field(page, 'orderid of the approved payment').fill('1000003');
  await shot('card-info.png');

  await h.open(`#/rebill/${DEMO_CARD_REF}`);
  await field(page, 'Amount').fill('7.50');
  await field(page, 'Description').fill('Minibar, room 12');
  await page.getByRole('button', { name: 'Charge card…' }).click();
  await confirmAndWait(page, /^Charge /, /Approved/);
  await shot('rebill.png');

  await h.open(`#/recurring/${DEMO_CARD_REF}`);
  await fillRecurring(page);
  await page.getByText(/^Every month on day 31/).waitFor();
  await shot('recurring.png');

  await page.setViewportSize({ width: 1280, height: 1500 });
  await h.open('#/pay-link');
  await fillPayLink(page);
  await page.getByRole('button', { name: 'Make link…' }).click();
  await confirmAndWait(page, /^Make link$/, /The link is ready/);
  await page.getByRole('table', { name: 'Payment links' }).waitFor();
  // The QR code's encoder loads once a link exists.
  await page.getByRole('img', { name: 'QR code of the link' }).locator('svg').waitFor();
  await shot('pay-link.png');

  // The same payout on a production profile: the amount is typed before anything is sent.
  await page.setViewportSize({ width: 1280, height: 1150 });
  await useProductionProfile(h);
  await h.open('#/journal');
  await h.open('#/payouts');
  await fillPayout(page, { amount: '1250.00' });
  await page.getByRole('button', { name: 'Send payout…' }).click();
  await page.getByRole('dialog').waitFor();
  await field(page, /To confirm, type the amount/).fill('125');
  await shot('payout-production.png');
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Sandbox' });
  return paths;
}

/** A monthly subscription starting on the 31st of a month next year, 12 charges. */
export async function fillRecurring(page: Page, { interval = '1', start = nextJanuary31() } = {}) {
  await field(page, 'Amount per charge').fill('9.99');
  await page.getByRole('combobox', { name: 'Period' }).selectOption('month');
  await field(page, 'Every how many periods').fill(interval);
  await page.getByLabel('First charge (optional)').fill(start);
  await field(page, 'Number of charges (optional)').fill('12');
  await field(page, 'E-mail (optional)').fill('anna@example.com');
  await field(page, 'Description').fill('Magazine subscription');
}

export function nextJanuary31(): string {
  return `${new Date().getUTCFullYear() + 1}-01-31`;
}

export async function fillPayLink(page: Page, { email = 'anna@example.com' } = {}) {
  await field(page, 'Amount').fill('42.00');
  await field(page, 'Customer’s e-mail').fill(email);
  await field(page, 'Description').fill('Phone order 7781: two tickets');
  await field(page, 'Return page').fill('https://shop.example/thanks');
}
