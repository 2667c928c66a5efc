// The Reconciliation screen in the browser, through the real bridge and services and the
// embedded sandbox, with demo orders changed behind Paydesk's back: each disagreement is listed
// with its words and a link to its order's page, only `status` reached the sandbox, and the result is
// saved as CSV and as a PDF page to sign (printed by the harness's Chromium). A screenshot goes
// to the temp folder, or $PAYDESK_SCREENSHOT_DIR.

import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { stableScreenshot } from '../harness/fixed-clock';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { makeDisagreements, reconcileOnScreen, type Disagreements } from './shots/reconcile';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ services: { sandboxDelayMs: 0 } });
  h.page.setDefaultTimeout(10_000);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

describe('Reconciliation screen', () => {
  let changed: Disagreements;

  it('lists every disagreement with its order, having asked the gateway only for status', async () => {
    changed = await makeDisagreements(h);
    const sandbox = h.services.builtInSandbox!;
    const before = sandbox.requests().length;
    await reconcileOnScreen(h);
    const sent = sandbox.requests().slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.map((r) => r.operation))).toEqual(new Set(['STATUS']));

    const { page } = h;
    const table = page.getByRole('region', { name: 'Disagreements' });
    const text = await table.innerText();
    expect(text).toMatch(
      /The gateway says the order is fully refunded \(15\.75 USD\); Paydesk's journal holds refunds of 5\.00 USD: the rest was refunded elsewhere\./,
    );
    expect(text).toMatch(
      /The journal says approved; the gateway now says declined \(reversal_declined\), 1000 JPY: Reversed by the issuer\./,
    );
    expect(text).toMatch(/The journal says 59\.00 EUR; the gateway says 49\.00 EUR\./);
    const profileId = h.services.report.sandbox.running ? h.services.report.sandbox.profileId : '';
    for (const order of [changed.refundedElsewhere, changed.declined, changed.altered])
      expect(
        await table
          .getByRole('link', { name: `Open order ${order}` })
          .first()
          .getAttribute('href'),
      ).toBe(`#/order/${profileId}/${order}`);
    // The order's page opens from its line.
    await table
      .getByRole('link', { name: `Open order ${changed.altered}` })
      .first()
      .click();
    await expect
      .poll(() => page.url())
      .toMatch(new RegExp(`#/order/${profileId}/${changed.altered}$`));
    await page.goBack();
    await page.getByRole('region', { name: 'Disagreements' }).waitFor();
    expect(text).toMatch(
      /Paydesk still calls this entry unsettled; the gateway now says approved \(reversal_approved\), 10\.00 EUR\./,
    );
    expect(await page.getByText(/disagree 5/).count()).toBe(1);
    await stableScreenshot(page, {
      path: join(process.env.PAYDESK_SCREENSHOT_DIR ?? tmpdir(), 'reconcile.png'),
      fullPage: true,
    });
  });

  it("opens an unsettled entry's journal entry, where it is settled by hand", async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Open its journal entry' }).click();
    await expect
      .poll(() => decodeURIComponent(new URL(page.url()).hash))
      .toBe(`#/journal/entry:${changed.unsettled}`);
    await expect
      .poll(() => page.getByRole('button', { name: /Settle by hand/ }).count())
      .toBeGreaterThan(0);
    await page.goBack();
    await page.getByRole('region', { name: 'Disagreements' }).waitFor();
  });

  it('saves the result as CSV and the page to sign as PDF', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Save as CSV' }).click();
    await expect.poll(() => h.saved.some((f) => f.kind === 'csv')).toBe(true);
    const csv = h.saved.find((f) => f.kind === 'csv')!;
    expect(csv.name).toMatch(/^paydesk-reconciliation-\d+\.csv$/);
    expect(csv.content.split('\r\n')[0]).toBe(
      'line,kind,orderid,client_orderid,operation,written_at,journal,gateway,result,findings,error',
    );
    expect(csv.content).toContain('the rest was refunded elsewhere');
    await page.getByRole('button', { name: 'Save the page to sign (PDF)' }).click();
    await expect.poll(() => h.saved.some((f) => f.kind === 'pdf')).toBe(true);
    expect(h.saved.find((f) => f.kind === 'pdf')!.content.startsWith('%PDF-')).toBe(true);
  });
});
