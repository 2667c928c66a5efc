// The Batch screen for docs/screenshots and its e2e test: a file with mistakes, as a clerk's
// spreadsheet would give it (semicolons, a BOM, CRLF), loaded through the file chooser.

import { join } from 'node:path';

import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

/** Two refunds that fit, and three mistakes: over what is left, wrong currency, no such order. */
export const FILE_WITH_MISTAKES =
  '\uFEFFoperation;client_orderid;amount;currency;reason;note\r\n' +
  'refund;demo-sale-1001;5.00;EUR;Damaged;"box 7; crushed"\r\n' +
  'refund;demo-sale-1001;50.00;EUR;Damaged;\r\n' +
  'refund;demo-sale-1003;1.00;EUR;Damaged;\r\n' +
  'refund;demo-sale-0000;1.00;EUR;Damaged;\r\n' +
  'refund;demo-sale-1003;2.50;USD;Late delivery;\r\n';

export async function loadBatchFile(h: Harness, name: string, text: string): Promise<void> {
  const { page } = h;
  await h.open('#/batch');
  await page.getByLabel('CSV file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
  await page.getByRole('button', { name: 'Check the rows' }).click();
  await page.getByRole('region', { name: /^Batch \d+$/ }).waitFor();
}

export async function shootBatch(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  await loadBatchFile(h, 'returns-november.csv', FILE_WITH_MISTAKES);
  await page.getByRole('button', { name: 'Send 2 rows…' }).click();
  await page.getByRole('button', { name: 'Send 2 rows', exact: true }).click();
  await page.getByText('done 2', { exact: false }).waitFor({ timeout: 60_000 });
  const file = join(dir, 'batch.png');
  await stableScreenshot(page, { path: file, fullPage: true });
  return [file];
}
