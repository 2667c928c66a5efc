// A damaged database: Paydesk still opens, read-only, and a banner says what is wrong, where the
// file is and how to restore it. The file itself is left exactly as it was.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness } from '../harness/harness';

afterAll(async () => {
  await closeSharedBrowser();
});

it('opens on a damaged database with a banner saying what is wrong and how to restore it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-e2e-damaged-'));
  const file = join(dataDir, 'paydesk.sqlite');
  writeFileSync(file, Buffer.concat([Buffer.from('NOT A DATABASE!!'), Buffer.alloc(8192, 7)]));
  const before = createHash('sha256').update(readFileSync(file)).digest('hex');
  const h = await startHarness({ dataDir });
  try {
    await h.open('#/lookup');
    const banner = h.page
      .getByRole('alert')
      .filter({ hasText: 'Paydesk is read-only: its database cannot be written.' });
    await expect.poll(() => banner.count()).toBe(1);
    const text = await banner.innerText();
    expect(text).toContain(file);
    expect(text).toMatch(/is damaged/);
    expect(text).toMatch(/quit Paydesk, move/);
    expect(text).toMatch(/backup/);
    expect(text).toMatch(/refund and cancel are refused/);
    // The rest of the app is there to read.
    await expect
      .poll(() => h.page.getByRole('navigation', { name: 'Screens' }).isVisible())
      .toBe(true);
    // The action screens grey their controls, saying why in one line.
    await h.open('#/payouts');
    await h.page
      .getByRole('note')
      .filter({
        hasText:
          'Paydesk is read-only (its database cannot be written): nothing is sent or changed.',
      })
      .waitFor();
    expect(
      await h.page.locator('fieldset.role-fence').evaluate((f: HTMLFieldSetElement) => f.disabled),
    ).toBe(true);
    await h.open('#/lookup');
    await banner.waitFor();
    const shot = await h.page.screenshot({
      path: join(tmpdir(), 'paydesk-read-only-banner.png'),
      caret: 'hide',
      animations: 'disabled',
    });
    expect(shot.length).toBeGreaterThan(1000);
  } finally {
    await h.close();
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
