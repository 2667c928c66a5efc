// The SecretStore against the REAL OS keychain through keytar. Runs where a Secret Service is
// reachable and unlocked; skipped, with the reason printed, elsewhere. Headless Linux (CI):
//
//   XDG_DATA_HOME="$(mktemp -d)" dbus-run-session -- sh -c \
//     'echo -n test-only | gnome-keyring-daemon --unlock --components=secrets >/dev/null && npx vitest run test/keychain'
//
// Every run uses its own service name and removes everything it wrote.

import { randomUUID } from 'node:crypto';

import keytar from 'keytar';
import { afterAll, describe, expect, it } from 'vitest';

import { generateKeyPair, importPrivateKey } from '../../main/keys';
import { CachedSecretStore, KeytarSecretStore } from '../../main/secrets';
import { secretStoreContract } from '../unit/secrets/contract';

const service = `paydesk-test-${randomUUID()}`;
const store = new KeytarSecretStore({ service });
const status = await store.probe();
if (!status.usable) {
  console.warn(
    `Skipping the real-keychain tests: ${status.error.reason}: ${status.error.message} (${status.error.detail ?? ''})`,
  );
}

describe.skipIf(!status.usable)('the real OS keychain', () => {
  afterAll(async () => {
    // Whatever a failing test left behind goes too.
    for (const { account } of await keytar.findCredentials(service)) {
      await keytar.deletePassword(service, account);
    }
    expect(await keytar.findCredentials(service)).toEqual([]);
  });

  secretStoreContract('KeytarSecretStore', () => store);
  // As the app uses it: each secret read once, then kept.
  secretStoreContract('CachedSecretStore over it', () => new CachedSecretStore(store));

  it('keeps a 4096-bit private key intact through the real keychain', async () => {
    const material = await generateKeyPair(4096);
    const profileId = randomUUID();
    await store.set(profileId, 'rsa-private-key', material.privateKeyPkcs8Pem);
    const back = await store.get(profileId, 'rsa-private-key');
    expect(back).toBe(material.privateKeyPkcs8Pem);
    expect((await importPrivateKey(back ?? '')).fingerprint).toBe(material.fingerprint);
    // Stored in parts small enough for Windows Credential Manager, under the documented account.
    const accounts = (await keytar.findCredentials(service)).map((c) => c.account).sort();
    expect(accounts).toEqual([
      `${profileId}:rsa-private-key`,
      `${profileId}:rsa-private-key:1`,
      `${profileId}:rsa-private-key:2`,
    ]);
    expect(await store.delete(profileId, 'rsa-private-key')).toBe(true);
    expect(await keytar.findCredentials(service)).toEqual([]);
  });

  it("tells a profile's secret from the team's password, for the start's evidence", async () => {
    expect(await store.holdsProfileSecrets()).toBe(false);
    await store.set('team-journal', 'team-password', 'pw-only');
    expect(await store.holdsProfileSecrets()).toBe(false);
    const profileId = randomUUID();
    await store.set(profileId, 'control-key', 'CK');
    expect(await store.holdsProfileSecrets()).toBe(true);
    await store.delete(profileId, 'control-key');
    await store.delete('team-journal', 'team-password');
    expect(await store.holdsProfileSecrets()).toBe(false);
  });

  it('leaves no probe entry behind', async () => {
    expect(await store.probe()).toEqual({ usable: true });
    expect(await keytar.findCredentials(service)).toEqual([]);
  });
});
