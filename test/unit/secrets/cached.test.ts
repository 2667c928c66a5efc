// The keychain read once per secret (main/secrets/cached.ts): a secret is asked of the keychain
// the first time, then answered from what was read or written here; what a change overtook, a
// failed read (a locked keychain) and a failed write are never kept, so the next read asks the
// keychain again.

import { describe, expect, it } from 'vitest';

import {
  CachedSecretStore,
  MemorySecretStore,
  SecretStoreUnavailableError,
  type SecretKind,
} from '../../../main/secrets';
import { secretStoreContract } from './contract';

/** The in-memory keychain, counting its reads; a read may be held until `release`. */
class CountingKeychain extends MemorySecretStore {
  reads = 0;
  private held: (() => void) | undefined;
  hold = false;

  override async get(profileId: string, kind: SecretKind): Promise<string | undefined> {
    this.reads++;
    const value = await super.get(profileId, kind);
    if (this.hold) await new Promise<void>((resolve) => (this.held = resolve));
    return value;
  }

  release(): void {
    this.hold = false;
    this.held?.();
  }
}

secretStoreContract('CachedSecretStore over the in-memory store', () => {
  return new CachedSecretStore(new MemorySecretStore());
});

describe('the keychain read once per secret', () => {
  it('asks the keychain for a secret once, then answers from what it read or wrote', async () => {
    const keychain = new CountingKeychain();
    await keychain.set('p1', 'control-key', 'key-1');
    const secrets = new CachedSecretStore(keychain);
    expect(await secrets.get('p1', 'control-key')).toBe('key-1');
    expect(await secrets.get('p1', 'control-key')).toBe('key-1');
    // Nothing stored is an answer too: a profile without a private key asks once.
    expect(await secrets.get('p1', 'rsa-private-key')).toBeUndefined();
    expect(await secrets.get('p1', 'rsa-private-key')).toBeUndefined();
    expect(keychain.reads).toBe(2);

    // Its own changes are what it answers next, and what the keychain holds.
    await secrets.set('p1', 'control-key', 'key-2');
    await secrets.set('p1', 'rsa-private-key', 'pem');
    expect(await secrets.get('p1', 'control-key')).toBe('key-2');
    expect(await secrets.get('p1', 'rsa-private-key')).toBe('pem');
    expect(await secrets.delete('p1', 'control-key')).toBe(true);
    expect(await secrets.get('p1', 'control-key')).toBeUndefined();
    expect(keychain.reads).toBe(2);
    expect(keychain.accounts()).toEqual(['p1:rsa-private-key']);
  });

  it('keeps no answer of a locked keychain: once unlocked, the secret is read', async () => {
    const keychain = new CountingKeychain();
    await keychain.set('p1', 'control-key', 'key-1');
    const secrets = new CachedSecretStore(keychain);
    keychain.makeUnavailable('locked', 'linux');
    await expect(secrets.get('p1', 'control-key')).rejects.toBeInstanceOf(
      SecretStoreUnavailableError,
    );
    keychain.makeAvailable();
    expect(await secrets.get('p1', 'control-key')).toBe('key-1');
  });

  it('keeps nothing of a failed write: the next read asks the keychain', async () => {
    const keychain = new CountingKeychain();
    await keychain.set('p1', 'control-key', 'key-1');
    const secrets = new CachedSecretStore(keychain);
    expect(await secrets.get('p1', 'control-key')).toBe('key-1');
    keychain.makeUnavailable('locked', 'linux');
    await expect(secrets.set('p1', 'control-key', 'key-2')).rejects.toThrow();
    await expect(secrets.get('p1', 'control-key')).rejects.toBeInstanceOf(
      SecretStoreUnavailableError,
    );
    keychain.makeAvailable();
    expect(await secrets.get('p1', 'control-key')).toBe('key-1');
    expect(keychain.reads).toBe(3);
  });

  it('does not keep a read that a change overtook', async () => {
    const keychain = new CountingKeychain();
    await keychain.set('p1', 'control-key', 'old');
    const secrets = new CachedSecretStore(keychain);
    keychain.hold = true;
    const reading = secrets.get('p1', 'control-key');
    await new Promise((resolve) => setImmediate(resolve));
    // A key rotated while the read was under way: the read still answers what it read...
    await secrets.set('p1', 'control-key', 'new');
    keychain.release();
    expect(await reading).toBe('old');
    // ...but what is kept is the rotation's.
    expect(await secrets.get('p1', 'control-key')).toBe('new');
    expect(await keychain.get('p1', 'control-key')).toBe('new');
  });
});
