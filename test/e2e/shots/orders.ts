// Screenshots of the Orders screen for the README: a looked-up order and the capture, void and
// refund forms filled in with demo data (the refund one at its confirmation), the recent orders,
// and a production refund's typed confirmation (half typed). Nothing is sent,
// so the demo orders stay as they were.

import { join } from 'node:path';

import type { Page } from 'playwright-core';

import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

/** Looks an order up through the search form, as a person would, and waits for its card. */
export async function lookUp(page: Page, ref: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Order reference' }).fill(ref);
  await page.getByRole('button', { name: 'Look up', exact: true }).click();
  await orderHeading(page).waitFor();
}

export function orderHeading(page: Page) {
  return page.getByRole('heading', { level: 2, name: /^Order \d+$/ });
}

/** Opens an order by its deep link and waits for its card. */
export async function openOrder(h: Harness, ref: string): Promise<void> {
  await h.open(`#/lookup/${encodeURIComponent(ref)}`);
  await orderHeading(h.page).waitFor();
}

export async function shootOrders(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  const paths: string[] = [];
  const shot = async (name: string) => {
    const path = join(dir, name);
    // No hover, caret or focus ring of the last field typed in; the picture shows the data.
    await page.mouse.move(0, 0);
    if (!(await page.getByRole('dialog').isVisible()))
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    await stableScreenshot(page, { path, caret: 'hide', animations: 'disabled' });
    paths.push(path);
  };
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 800 });
  await h.open('#/lookup');
  await lookUp(page, 'demo-sale-1002');
  await shot('lookup.png');

  // Tall enough for an order and its open action in one picture, and for a modal's backdrop.
  await page.setViewportSize({ width: 1280, height: 1300 });

  await openOrder(h, 'demo-auth-2003');
  await page.getByRole('button', { name: 'Capture…' }).click();
  await page.getByRole('textbox', { name: /^Amount to capture/ }).fill('150.00');
  await page
    .getByRole('textbox', { name: /^Note/ })
    .fill('Ticket order 4471 shipped; the rest is released on Friday.');
  await shot('capture.png');

  await openOrder(h, 'demo-sale-1003');
  await page.getByRole('button', { name: 'Void…' }).click();
  await page.getByRole('combobox', { name: 'Reason' }).selectOption('Customer cancelled');
  await page
    .getByRole('textbox', { name: /^Note/ })
    .fill('Customer called at 14:05 and cancelled before shipping.');
  await shot('void.png');

  await openOrder(h, 'demo-sale-1001');
  await page.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('textbox', { name: /^Amount to refund/ }).fill('19.90');
  await page.getByRole('combobox', { name: 'Reason' }).selectOption('Returned goods');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await page.getByRole('dialog').waitFor();
  await shot('refund.png');
  await page.keyboard.press('Escape');

  // The Orders screen's landing: the orders looked up above, newest first.
  await page.setViewportSize({ width: 1280, height: 800 });
  await h.open('#/lookup');
  await page.getByRole('region', { name: 'Recent orders' }).getByRole('row').nth(1).waitFor();
  await shot('recent-orders.png');

  // A production profile (on the sandbox's address): the amount must be typed to confirm.
  await page.setViewportSize({ width: 1280, height: 1300 });
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (sandbox && !(await h.services.profiles.list()).some((p) => p.name === 'Shop live')) {
    await h.services.profiles.create({
      name: 'Shop live',
      environment: 'production',
      baseUrl: sandbox.baseUrl,
      endpointId: sandbox.endpointId,
      login: sandbox.login,
      controlKey: (await h.secrets.get(sandbox.id, 'control-key')) ?? '',
    });
  }
  await page.reload();
  await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Shop live' });
  await lookUp(page, 'demo-sale-1010');
  await page.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('textbox', { name: /^Amount to refund/ }).fill('1500');
  await page.getByRole('combobox', { name: 'Reason' }).selectOption('Damaged goods');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await page.getByRole('dialog').waitFor();
  await page.getByRole('textbox', { name: /To confirm, type the amount/ }).fill('15');
  await shot('refund-production.png');
  await page.keyboard.press('Escape');
  if (sandbox)
    await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Sandbox' });

  if (viewport) await page.setViewportSize(viewport);
  return paths;
}
