// The Batch screen in the browser, through the real bridge and services and the embedded
// sandbox: a file with mistakes shows each row's problem and sends none of those rows; the
// rest are sent after the confirmation, run to their final status, and the result file names
// every row. Pause says "pausing" until the row in flight ends (screenshot to the temp folder,
// or $PAYDESK_SCREENSHOT_DIR), and Cancel asks first.

import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { FILE_WITH_MISTAKES, loadBatchFile } from './shots/batch';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

describe('Batch screen', () => {
  it('says to choose a file when there is none', async () => {
    const { page } = h;
    await h.open('#/batch');
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await expect
      .poll(() => page.getByText('Choose a CSV file or paste its rows first.').isVisible())
      .toBe(true);
    await page.getByLabel('Or paste the rows').fill('operation,order\nrefund,1\n');
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'does not know: order' }).count())
      .toBe(1);
  });

  it('shows every mistake on its row, sends only the rest, and saves the result', async () => {
    const { page } = h;
    await loadBatchFile(h, 'returns.csv', FILE_WITH_MISTAKES);
    const view = page.getByRole('region', { name: /^Batch \d+$/ });
    expect(await view.getByText('3 rows have a problem and will not be sent').count()).toBe(1);
    const rows = view.locator('tbody tr');
    expect(await rows.nth(1).innerText()).toMatch(
      /55\.00 is more than the order's amount, 49\.90 EUR/,
    );
    expect(await rows.nth(2).innerText()).toMatch(/The order is in USD/);
    expect(await rows.nth(3).innerText()).toMatch(/could not be looked up/);
    expect(await view.getByRole('list', { name: 'Totals' }).innerText()).toMatch(
      /refund 5\.00 EUR \(1 row\)\s+refund 2\.50 USD \(1 row\)/,
    );
    // Nothing was sent by loading the file.
    expect((await h.services.journal.search({}, 0, 10)).total).toBe(0);

    await view.getByRole('button', { name: 'Send 2 rows…' }).click();
    const dialog = page.getByRole('dialog', { name: /Send batch \d+\?/ });
    await dialog.getByRole('button', { name: 'Go back' }).click();
    expect((await h.services.journal.search({}, 0, 10)).total).toBe(0);
    await view.getByRole('button', { name: 'Send 2 rows…' }).click();
    await dialog.getByRole('button', { name: 'Send 2 rows', exact: true }).click();
    await view.getByText('done 2').waitFor({ timeout: 60_000 });
    expect(await view.getByText('left 0').count()).toBe(1);
    await expect.poll(() => rows.nth(0).innerText()).toMatch(/\bdone\b.*approved/);
    expect(await rows.nth(4).innerText()).toMatch(/\bdone\b.*approved/);
    expect((await h.services.journal.search({}, 0, 10)).total).toBe(2);

    await view.getByRole('button', { name: 'Save the result CSV…' }).click();
    await expect.poll(() => h.saved.length).toBe(1);
    const saved = h.saved[0];
    expect(saved?.name).toBe('returns-result.csv');
    const lines = (saved?.content ?? '').trim().split('\r\n');
    // The file's own columns and cells as given (a semicolon file written back with commas),
    // then the gateway's orderid, the action id, the status and the error.
    expect(lines[0]).toBe(
      'operation,client_orderid,amount,currency,reason,note,gateway_orderid,action_id,status,error',
    );
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(
      /^refund,demo-sale-1001,5\.00,EUR,Damaged,box 7; crushed,\d+,pd-[a-z0-9-]+,approved,$/,
    );
    expect(lines[3]).toMatch(
      /^refund,demo-sale-1003,1\.00,EUR,.*not sent \(problem in the file\),.*USD/,
    );
  });
});

describe('Batch screen, pausing and cancelling', () => {
  // A sandbox that keeps each refund processing for 3 s: the row in flight outlasts the clicks.
  let slow: Harness;
  beforeAll(async () => {
    slow = await startHarness({ services: { sandboxDelayMs: 3_000 } });
    slow.page.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await slow?.close();
  });

  it('says "pausing" until the row in flight ends, and asks before cancelling', async () => {
    const { page } = slow;
    await slow.open('#/batch');
    await page.getByLabel('Or paste the rows').fill(
      'operation,client_orderid,amount,currency,reason,note\n' +
        // One order's rows run one after another: one in flight at a time.
        Array.from({ length: 4 }, () => 'refund,demo-sale-1002,1.00,EUR,Damaged,').join('\n'),
    );
    await page.getByRole('button', { name: 'Check the rows' }).click();
    const view = page.getByRole('region', { name: /^Batch \d+$/ });
    await view.waitFor();
    await view.getByRole('button', { name: 'Send 4 rows…' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Send 4 rows', exact: true })
      .click();
    await view.getByRole('button', { name: 'Pause' }).click();
    // The row in flight goes on (the sandbox keeps it processing for 3 s); no new row starts.
    const state = view.locator('.batch-state');
    await expect.poll(() => state.innerText()).toBe('pausing');
    expect(await view.getByText(/^Pausing: no new row starts\./).innerText()).toMatch(
      /The row being sent goes on to its final status first\./,
    );
    expect(await view.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await page.screenshot({
      path: join(process.env.PAYDESK_SCREENSHOT_DIR ?? tmpdir(), 'batch-pausing.png'),
      fullPage: true,
    });
    await expect.poll(() => state.innerText(), { timeout: 30_000 }).toBe('paused');
    const states = await view.locator('tbody tr').allInnerTexts();
    expect(states.filter((s) => /\bwaiting\b/.test(s))).toHaveLength(3);

    // Cancel asks first; "Keep the batch" leaves it as it was.
    await view.getByRole('button', { name: 'Cancel the batch…' }).click();
    const dialog = page.getByRole('dialog', { name: /Cancel batch \d+\?/ });
    expect(await dialog.innerText()).toMatch(/The 3 rows not yet sent will not be sent\./);
    await dialog.getByRole('button', { name: 'Keep the batch' }).click();
    expect(await state.innerText()).toBe('paused');
    await view.getByRole('button', { name: 'Cancel the batch…' }).click();
    await dialog.getByRole('button', { name: 'Cancel the batch', exact: true }).click();
    await expect.poll(() => state.innerText()).toBe('cancelled');
    expect(await view.getByText(/cancelled 3/).count()).toBe(1);
  }, 60_000);
});
