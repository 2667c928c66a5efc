// The behaviour every SecretStore must have, run against the in-memory store, the keytar adapter
// over a stand-in keytar, and (test/keychain) the real OS keychain.

import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { SECRET_KINDS, SecretStoreError, type SecretStore } from '../../../main/secrets';
import { CONTROL_KEY } from '../../support/samples';

// Long enough to need several keychain entries on Windows (more than 2000 UTF-8 bytes).
export const LONG_SECRET = `-----BEGIN PRIVATE KEY-----\n${'QUJDRA=='.repeat(420)}\n-----END PRIVATE KEY-----\n`;

export function secretStoreContract(name: string, makeStore: () => SecretStore): void {
  describe(`${name}: the SecretStore contract`, () => {
    const used: [SecretStore, string][] = [];
    const profile = (store: SecretStore): string => {
      const id = randomUUID();
      used.push([store, id]);
      return id;
    };

    afterEach(async () => {
      for (const [store, id] of used.splice(0)) {
        for (const kind of SECRET_KINDS) await store.delete(id, kind);
      }
    });

    it('probes usable', async () => {
      expect(await makeStore().probe()).toEqual({ usable: true });
    });

    it('stores, reads and deletes a secret by profile and kind', async () => {
      const store = makeStore();
      const id = profile(store);
      expect(await store.get(id, 'control-key')).toBeUndefined();
      await store.set(id, 'control-key', CONTROL_KEY);
      expect(await store.get(id, 'control-key')).toBe(CONTROL_KEY);
      expect(await store.get(id, 'rsa-private-key')).toBeUndefined();
      expect(await store.delete(id, 'control-key')).toBe(true);
      expect(await store.get(id, 'control-key')).toBeUndefined();
      expect(await store.delete(id, 'control-key')).toBe(false);
    });

    it('keeps profiles apart and overwrites on set', async () => {
      const store = makeStore();
      const [a, b] = [profile(store), profile(store)];
      await store.set(a, 'control-key', 'key-a');
      await store.set(b, 'control-key', 'key-b');
      await store.set(a, 'control-key', 'key-a2');
      expect(await store.get(a, 'control-key')).toBe('key-a2');
      expect(await store.get(b, 'control-key')).toBe('key-b');
    });

    it('round-trips a long secret, and a long one replaced by a short one and back', async () => {
      const store = makeStore();
      const id = profile(store);
      await store.set(id, 'rsa-private-key', LONG_SECRET);
      expect(await store.get(id, 'rsa-private-key')).toBe(LONG_SECRET);
      await store.set(id, 'rsa-private-key', 'short');
      expect(await store.get(id, 'rsa-private-key')).toBe('short');
      const other = `${LONG_SECRET}ünïcødé €`.repeat(2);
      await store.set(id, 'rsa-private-key', other);
      expect(await store.get(id, 'rsa-private-key')).toBe(other);
      expect(await store.delete(id, 'rsa-private-key')).toBe(true);
      expect(await store.get(id, 'rsa-private-key')).toBeUndefined();
    });

    it('refuses bad profile ids, unknown kinds and empty secrets', async () => {
      const store = makeStore();
      await expect(store.set('a:b', 'control-key', 'x')).rejects.toThrow(SecretStoreError);
      await expect(store.get('', 'control-key')).rejects.toThrow(SecretStoreError);
      await expect(store.get('p', 'password' as never)).rejects.toThrow(/Unknown secret kind/);
      await expect(store.set(profile(store), 'control-key', '')).rejects.toThrow(/empty/);
    });
  });
}
