// Screenshot of Settings -> Network for docs/screenshots (npm run screenshots): a company's
// TLS-inspection CA pasted and trusted (the CA's key a test-only one, so a second run draws the
// same).

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { Harness } from '../../harness/harness';
import { privateCaChain } from '../../support/tls';
import { stableScreenshot } from '../../harness/fixed-clock';

export async function shootNetwork(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  await h.open('#/network');
  // A test-only key for the authority: its certificate (fingerprint, key) the same on every run.
  const caKey = readFileSync(
    resolve(
      import.meta.dirname,
      '..',
      '..',
      'harness',
      'fixtures',
      'test-only-screenshots-rsa2048-pkcs8.pem',
    ),
    'utf8',
  );
  await page.getByLabel('CA certificate (PEM)').fill(privateCaChain(caKey).caCert);
  await page.getByRole('button', { name: 'Trust this CA' }).click();
  await page.getByText('Trusted from the next connection on').waitFor();
  const file = join(dir, 'network.png');
  await stableScreenshot(page, { path: file, fullPage: true });
  return [file];
}
