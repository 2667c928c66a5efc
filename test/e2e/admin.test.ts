// Profiles and keys in the browser, through the real bridge and services: a profile refused for
// plain http and then created, edited without ever showing its control key, its connection
// tested (the sandbox answers; a closed port is named), removed; a key generated, exported as
// public_key.pem and copied; a key that belongs to a test profile refused for production.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fingerprintOf } from '../../main/keys';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

async function profileId(name: string): Promise<string> {
  const profile = (await h.services.profiles.list()).find((p) => p.name === name);
  if (!profile) throw new Error(`no profile ${name}`);
  return profile.id;
}

describe('Profiles screen', () => {
  it('refuses a plain-http base URL under the field, then creates the profile', async () => {
    const { page } = h;
    await h.open('#/profiles');
    await page.getByRole('button', { name: 'New profile' }).click();
    const form = page.getByRole('form', { name: 'New profile' });
    await form.getByLabel('Name', { exact: true }).fill('Test EUR');
    await form.getByLabel('Environment').selectOption('test');
    await form.getByLabel('Base URL').fill('http://gate.example.com');
    await form.getByLabel('Endpoint id').fill('2222');
    await form.getByLabel('Merchant login').fill('merchant-test');
    await form.getByLabel('Control key').fill('TEST-CONTROL-KEY-1');
    await form.getByRole('button', { name: 'Create profile' }).click();

    const baseUrl = form.getByLabel('Base URL');
    await expect.poll(() => baseUrl.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() =>
        form.getByText(/plain http:\/\/, which would send payment data unencrypted/).isVisible(),
      )
      .toBe(true);
    await expect.poll(() => baseUrl.evaluate((el) => el === document.activeElement)).toBe(true);

    await baseUrl.fill('https://gate.example.com/paynet');
    await form.getByRole('button', { name: 'Create profile' }).click();
    const card = page.getByRole('article', { name: 'Test EUR' });
    await card.waitFor();
    await expect.poll(() => card.innerText()).toMatch(/https:\/\/gate\.example\.com\/paynet/);
    expect(await card.innerText()).toMatch(/stored in the keychain/);
    expect(await page.getByText('Profile “Test EUR” created.').isVisible()).toBe(true);
    expect(await h.secrets.get(await profileId('Test EUR'), 'control-key')).toBe(
      'TEST-CONTROL-KEY-1',
    );
  });

  it('edits the profile without showing the control key, and replaces it only on request', async () => {
    const { page } = h;
    const card = page.getByRole('article', { name: 'Test EUR' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit profile “Test EUR”' });
    await form.waitFor();
    expect(await form.getByText('stored in the keychain').isVisible()).toBe(true);
    expect(await form.getByLabel(/control key/i).count()).toBe(0);
    expect(await form.innerHTML()).not.toContain('TEST-CONTROL-KEY-1');

    await form.getByLabel('Merchant login').fill('merchant-test-2');
    // Loopback http is allowed (a gateway on this computer); port 1 has nobody listening.
    await form.getByLabel('Base URL').fill('http://127.0.0.1:1/paynet');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => card.innerText()).toMatch(/merchant-test-2/);
    expect(await h.secrets.get(await profileId('Test EUR'), 'control-key')).toBe(
      'TEST-CONTROL-KEY-1',
    );

    await card.getByRole('button', { name: 'Edit' }).click();
    await form.getByRole('button', { name: 'Replace control key' }).click();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => form.getByText('Enter the new control key, or keep the stored one.').isVisible())
      .toBe(true);
    await form.getByLabel('New control key').fill('TEST-CONTROL-KEY-2');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await card.waitFor();
    expect(await h.secrets.get(await profileId('Test EUR'), 'control-key')).toBe(
      'TEST-CONTROL-KEY-2',
    );
  });

  it('tests connections: the sandbox answers, a closed port is named', async () => {
    const { page } = h;
    const sandbox = page.getByRole('article', { name: 'Sandbox' });
    await sandbox.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => sandbox.getByRole('status').innerText()).toMatch(/^Connected/);

    const test = page.getByRole('article', { name: 'Test EUR' });
    await test.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(() => test.getByRole('alert').innerText(), { timeout: 20_000 })
      .toMatch(/Connection failed: .*refused the connection/);
  });

  it('removes a profile after confirmation; the Sandbox offers no Remove', async () => {
    const { page } = h;
    expect(
      await page
        .getByRole('article', { name: 'Sandbox' })
        .getByRole('button', { name: 'Remove' })
        .count(),
    ).toBe(0);
    const card = page.getByRole('article', { name: 'Test EUR' });
    await card.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the profile “Test EUR”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await card.isVisible()).toBe(true);

    await card.getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove profile' }).click();
    await card.waitFor({ state: 'detached' });
    expect(await page.getByText('Profile “Test EUR” removed.').isVisible()).toBe(true);
    expect((await h.services.profiles.list()).map((p) => p.name)).not.toContain('Test EUR');
  });
});

describe('Keys screen', () => {
  let testId: string;
  beforeAll(async () => {
    testId = (
      await h.services.profiles.create({
        name: 'Keys Test',
        environment: 'test',
        baseUrl: 'https://gate.example.com/paynet',
        endpointId: '3333',
        login: 'keys-test',
        controlKey: 'K',
      })
    ).id;
    await h.services.profiles.create({
      name: 'Prod EUR',
      environment: 'production',
      baseUrl: 'https://gate.example.com/paynet',
      endpointId: '4444',
      login: 'prod-eur',
      controlKey: 'P',
    });
  });

  it('generates a key, shows its fingerprint, saves public_key.pem and copies it', async () => {
    const { page } = h;
    // A fresh load: the profiles above were made behind the page's back.
    await h.open('#/keys');
    await page.reload();
    await page.getByLabel('Key for profile').selectOption({ label: 'Keys Test (test)' });
    await page.getByText('This profile has no RSA key yet.', { exact: false }).waitFor();
    expect(await page.getByLabel('Key size').inputValue()).toBe('4096');
    await page.getByLabel('Key size').selectOption('2048');
    await page.getByRole('button', { name: 'Generate key' }).click();

    const fingerprint = page.getByRole('group', { name: 'SHA-256 fingerprint' });
    await fingerprint.waitFor();
    const shown = (await fingerprint.innerText()).replace(/\s+/g, '');
    expect(shown).toMatch(/^[0-9A-F]{64}$/);
    expect(await page.getByText(/RSA 2048 bits/).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Save public_key.pem…' }).click();
    await page.getByText(/public_key\.pem saved to /).waitFor();
    expect(h.saved[0]?.name).toBe('public_key.pem');
    const pem = h.saved[0]?.content ?? '';
    expect(pem).toContain('-----BEGIN PUBLIC KEY-----');
    expect(fingerprintOf(pem).replace(/:/g, '')).toBe(shown);
    expect(await page.getByLabel('Public key (PEM)').inputValue()).toBe(pem);

    await page.getByRole('button', { name: 'Copy public key' }).click();
    await page.getByText('The public key (PEM) is on the clipboard.').waitFor();
    expect(h.clipboard).toEqual([pem]);

    const history = page.getByRole('table');
    expect(await history.getByRole('row').count()).toBe(2);
    expect(await history.innerText()).toMatch(/current/);
  });

  it('asks before rotating and says the gateway needs the new public key', async () => {
    const { page } = h;
    const before = await page.getByRole('group', { name: 'SHA-256 fingerprint' }).innerText();
    await page.getByRole('button', { name: 'Generate new key…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the key of “Keys Test”?' });
    expect(await dialog.innerText()).toMatch(
      /gateway must receive the new public key before RSA-signed operations work again/,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('group', { name: 'SHA-256 fingerprint' }).innerText()).toBe(before);
  });

  it('checks a PEM before asking to replace a key; a new action clears the last notice', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Copy public key' }).click();
    await page.getByText('The public key (PEM) is on the clipboard.').waitFor();
    // Garbage is refused at once: no "Replace the key of ...?" first.
    await page.getByLabel('Private key (PEM)').fill('-----BEGIN PRIVATE KEY-----\nnope\n');
    await page.getByRole('button', { name: 'Import and rotate…' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^Not imported:/);
    expect(await page.getByRole('dialog').count()).toBe(0);
    // The clipboard notice belonged to the copy: it is gone.
    expect(await page.getByText('The public key (PEM) is on the clipboard.').count()).toBe(0);
    // A good key is read first, then the clerk is asked, with the new key's fingerprint.
    const { generateKeyPairSync } = await import('node:crypto');
    const fresh = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    await page.getByLabel('Private key (PEM)').fill(String(fresh));
    await page.getByRole('button', { name: 'Import and rotate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace the key of “Keys Test”?' });
    expect(await dialog.innerText()).toMatch(/RSA 2048 bits, fingerprint [0-9A-F]{4} /);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("choosing whose key to manage does not switch the app's active profile", async () => {
    const { page } = h;
    const activeBefore = await page.locator('#active-profile').inputValue();
    await page.getByLabel('Key for profile').selectOption({ label: 'Prod EUR (production)' });
    await page.getByText(/Only this screen shows Prod EUR; the active profile stays/).waitFor();
    expect(await page.locator('#active-profile').inputValue()).toBe(activeBefore);
    expect(await page.locator('.production-strip').count()).toBe(0);
  });

  it("refuses a test profile's key for a production profile, and a PEM that is no key", async () => {
    const { page } = h;
    const privatePem = await h.secrets.get(testId, 'rsa-private-key');
    expect(privatePem).toContain('PRIVATE KEY');

    await page.getByLabel('Key for profile').selectOption({ label: 'Prod EUR (production)' });
    await page.getByText('This profile has no RSA key yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Import key' }).click();
    await expect.poll(() => page.getByText('Paste the private key PEM.').isVisible()).toBe(true);

    await page.getByLabel('Private key (PEM)').fill('-----BEGIN PRIVATE KEY-----\nnope\n');
    await page.getByRole('button', { name: 'Import key' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^Not imported:/);

    await page.getByLabel('Private key (PEM)').fill(privatePem ?? '');
    await page.getByRole('button', { name: 'Import key' }).click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toMatch(/used by the test profile "Keys Test", and a key pair belongs to one environment/);
    expect(await h.services.keys.current(await profileId('Prod EUR'))).toBeNull();
  });
});
