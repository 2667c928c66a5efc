// Callback check in the browser, through the real bridge and services: support pastes a
// callback of the built-in sandbox and learns it is genuine (card number masked, a way to the
// order), then pastes one whose status was changed and is told it is not, and one whose amount
// was changed under a matching checksum and is told what the gateway says instead.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { sandboxCallback } from './shots/tools';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

describe('Callback check screen', () => {
  it('calls a genuine callback genuine, masks the card, and leads to the order', async () => {
    const { page } = h;
    await h.open('#/callback-check');
    await page.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => page.getByText('Paste the callback first.').isVisible()).toBe(true);

    const callback = await sandboxCallback(h);
    await page.getByLabel('Callback as received').fill(callback);
    await page.getByRole('button', { name: 'Check' }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByRole('heading', { name: 'Genuine' }).waitFor();
    const text = await verdict.innerText();
    expect(text).toMatch(/matches the control key of "Sandbox"/);
    expect(text).toContain('411111******1111');
    expect(text).not.toContain('4111111111111111');

    await verdict.getByRole('link', { name: /^Look up order \d+$/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await expect.poll(() => page.url()).toMatch(/#\/lookup\/\d+$/);
  });

  it('calls a callback whose status was changed not genuine, and says which check failed', async () => {
    const { page } = h;
    await h.open('#/callback-check');
    const genuine = await sandboxCallback(h);
    await page
      .getByLabel('Callback as received')
      .fill(genuine.replace('status=approved', 'status=declined'));
    await page.getByRole('button', { name: 'Check' }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByRole('heading', { name: 'Not genuine' }).waitFor();
    expect(await verdict.getByRole('alert').innerText()).toMatch(
      /does not match status, orderid and client_orderid/,
    );
    expect(await verdict.getByRole('link').count()).toBe(0);
  });

  it('calls a callback with a changed amount altered, never green, and shows both figures', async () => {
    const { page } = h;
    await h.open('#/callback-check');
    const genuine = await sandboxCallback(h);
    await page
      .getByLabel('Callback as received')
      .fill(genuine.replace('amount=49.90', 'amount=4990.00'));
    await page.getByRole('button', { name: 'Check' }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByRole('heading', { name: 'Altered: the gateway says otherwise' }).waitFor();
    expect(await verdict.getByRole('alert').innerText()).toMatch(
      /^The checksum matches, but the gateway says 49\.90 EUR, not 4990\.00 EUR: this callback was altered\./,
    );
    const row = verdict
      .getByRole('table', { name: 'Where the callback and the gateway disagree' })
      .getByRole('row', { name: /Amount/ });
    expect(await row.innerText()).toMatch(/Amount\s+4990\.00\s+49\.90/);
    expect(await verdict.evaluate((el) => el.classList.contains('verdict-good'))).toBe(false);
  });
});
