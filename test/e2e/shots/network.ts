// Screenshot of Settings -> Network for docs/screenshots (npm run screenshots): a company's
// TLS-inspection CA pasted and trusted.

import { join } from 'node:path';

import type { Harness } from '../../harness/harness';
import { privateCaChain } from '../../support/tls';
import { stableScreenshot } from '../../harness/fixed-clock';

export async function shootNetwork(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  await h.open('#/network');
  await page.getByLabel('CA certificate (PEM)').fill(privateCaChain().caCert);
  await page.getByRole('button', { name: 'Trust this CA' }).click();
  await page.getByText('Trusted from the next connection on').waitFor();
  const file = join(dir, 'network.png');
  await stableScreenshot(page, { path: file, fullPage: true });
  return [file];
}
