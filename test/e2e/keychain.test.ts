// A keychain that cannot be used: Paydesk still opens, and says what to unlock.

import { afterAll, expect, it } from 'vitest';

import { MemorySecretStore } from '../../main/secrets';
import { closeSharedBrowser, startHarness } from '../harness/harness';

afterAll(async () => {
  await closeSharedBrowser();
});

it('opens with a locked keychain and shows what to do about it', async () => {
  const secrets = new MemorySecretStore();
  secrets.makeUnavailable('locked', 'linux');
  const h = await startHarness({ secrets });
  try {
    await h.open('#/lookup');
    const alert = h.page.getByRole('alert').filter({ hasText: 'The keychain cannot be used.' });
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.innerText()).toMatch(/unlock/i);
    // The rest of the app is still there to read the journal or set up a profile.
    await expect
      .poll(() => h.page.getByRole('navigation', { name: 'Screens' }).isVisible())
      .toBe(true);
  } finally {
    await h.close();
  }
});
