// Screenshots of the admin and journal screens for docs/screenshots (npm run screenshots): the
// profiles list with a production and a test profile beside the built-in sandbox, the keys
// screen right after a key was generated, the journal with a few entries (and at 200% zoom),
// and one entry in full.

import { join } from 'node:path';

import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

async function sandboxId(h: Harness): Promise<string> {
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('The harness has no built-in Sandbox profile.');
  return sandbox.id;
}

/** A few journal entries as the services write them: two refunds and a capture. */
async function someEntries(h: Harness, profileId: string): Promise<void> {
  const { orders } = h.services;
  const act = async (ref: string, kind: 'refund' | 'capture', amount: string) => {
    const order = await orders.lookup(profileId, { client_orderid: ref });
    const { clientOrderId } = orders.openAction();
    const request = {
      profileId,
      orderid: order.orderId,
      clientOrderId,
      amount,
      ...(kind === 'refund' ? { reason: 'Customer request' } : {}),
    };
    return kind === 'refund' ? orders.refund(request) : orders.capture(request);
  };
  // Other screenshots may have acted on these orders already; a rule's refusal is no reason
  // to fail the picture.
  const tolerant = (p: Promise<unknown>) => p.catch(() => undefined);
  await tolerant(act('demo-sale-1001', 'refund', '5.00'));
  await tolerant(act('demo-sale-1002', 'refund', '1.25'));
  await tolerant(act('demo-auth-2002', 'capture', '40.00'));
}

export async function shootAdmin(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  const profileId = await sandboxId(h);
  const existing = (await h.services.profiles.list()).map((p) => p.name);
  if (!existing.includes('Production EUR')) {
    await h.services.profiles.create({
      name: 'Production EUR',
      environment: 'production',
      baseUrl: 'https://gate.example.com/paynet',
      endpointId: '4410',
      login: 'acme-eur',
      controlKey: 'screenshot-only-control-key',
    });
  }
  if (!existing.includes('Staging USD')) {
    await h.services.profiles.create({
      name: 'Staging USD',
      environment: 'test',
      baseUrl: 'https://sandbox.gate.example.com/paynet',
      endpointId: '5120',
      endpointKind: 'group',
      login: 'acme-usd-test',
      controlKey: 'screenshot-only-control-key',
    });
  }
  const written: string[] = [];
  // A hash change alone would keep the page's cached lists; the profiles above are new.
  const show = async (hash: string) => {
    await h.open(hash);
    await page.reload();
  };
  const shot = async (name: string) => {
    const path = join(dir, name);
    await stableScreenshot(page, { path, fullPage: true });
    written.push(path);
  };

  await show('#/profiles');
  await page
    .getByRole('article', { name: 'Sandbox' })
    .getByRole('button', { name: 'Test connection' })
    .click();
  await page.getByText(/^Connected/).waitFor();
  await shot('profiles.png');

  await show('#/keys');
  await page.getByLabel('Key for profile').selectOption({ label: 'Staging USD (test)' });
  await page.getByLabel('Key size').selectOption('2048');
  await page.getByRole('button', { name: /^Generate (new )?key/ }).click();
  const confirm = page.getByRole('dialog');
  if (await confirm.isVisible())
    await confirm.getByRole('button', { name: /^Generate new/ }).click();
  await page.getByRole('group', { name: 'SHA-256 fingerprint' }).waitFor();
  await page.getByText(/key generated and attached/).waitFor();
  await shot('keys.png');
  await page.getByLabel('Key for profile').selectOption(profileId);

  await someEntries(h, profileId);
  await show('#/journal');
  await page.getByRole('row').nth(3).waitFor();
  // Let the gateway's final statuses arrive, so the pills show approved rather than processing.
  await page
    .getByRole('link', { name: /^0 operations/ })
    .waitFor({ timeout: 20_000 })
    .catch(() => undefined);
  await page.getByText(/^\d+ entr(y|ies), newest first/).waitFor();
  await page.getByRole('region', { name: 'Totals of these entries' }).waitFor();
  await shot('journal.png');
  // The same at 200% zoom of a 1280x800 window: a 640x400 CSS viewport, the navigation folded,
  // the columns a clerk can do without given way. The list itself, scrolled to.
  await page.setViewportSize({ width: 640, height: 400 });
  try {
    await page.getByRole('region', { name: 'Journal entries' }).scrollIntoViewIfNeeded();
    const zoomed = join(dir, 'journal-zoom-200.png');
    await stableScreenshot(page, { path: zoomed });
    written.push(zoomed);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // One entry in full: its fields, the redacted request, its answers in order.
  await page
    .getByRole('button', { name: /^Details of / })
    .first()
    .click();
  await page.getByRole('dialog').getByText('Answers, in order').waitFor();
  const dialogShot = join(dir, 'journal-entry.png');
  await stableScreenshot(page, { path: dialogShot });
  written.push(dialogShot);
  await page.keyboard.press('Escape');
  return written;
}
