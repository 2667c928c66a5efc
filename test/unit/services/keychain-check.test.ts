// The start's keychain check with the real keytar adapter over a keytar that answers when the
// test says, as the OS's does when it shows an unlock or "create keyring" prompt: within the
// bound nothing is shown; after it the window is told, and an answer, a retry or a skip ends it.

import { describe, expect, it, vi } from 'vitest';

import { KeytarSecretStore, type KeytarApi } from '../../../main/secrets';
import { KEYCHAIN_SKIPPED_MESSAGE, KeychainCheck } from '../../../main/services/keychain-check';

/** A keytar whose writes wait for `answer()` (the prompt answered) and then work. */
function promptingKeytar() {
  const values = new Map<string, string>();
  const waiting: (() => void)[] = [];
  let writes = 0;
  const api: KeytarApi = {
    setPassword: async (service, account, password) => {
      writes += 1;
      await new Promise<void>((resolve) => waiting.push(resolve));
      values.set(`${service}/${account}`, password);
    },
    getPassword: (service, account) => Promise.resolve(values.get(`${service}/${account}`) ?? null),
    deletePassword: (service, account) => Promise.resolve(values.delete(`${service}/${account}`)),
  };
  return {
    store: new KeytarSecretStore({ loadKeytar: () => Promise.resolve(api), platform: 'linux' }),
    answer: () => waiting.splice(0).forEach((resolve) => resolve()),
    writes: () => writes,
  };
}

function events() {
  return { checking: vi.fn(), waiting: vi.fn() };
}

describe('the keychain check at start', () => {
  it('says nothing when the keychain answers within the bound', async () => {
    const keychain = promptingKeytar();
    const told = events();
    const check = new KeychainCheck(keychain.store, told, 1_000);
    const result = check.run();
    await vi.waitFor(() => expect(keychain.writes()).toBe(1));
    keychain.answer();
    expect(await result).toEqual({ usable: true });
    expect(told.waiting).not.toHaveBeenCalled();
  });

  it('tells the window after the bound, and goes on when the prompt is answered', async () => {
    const keychain = promptingKeytar();
    const told = events();
    const check = new KeychainCheck(keychain.store, told, 30);
    const result = check.run();
    await vi.waitFor(() => expect(told.waiting).toHaveBeenCalledOnce());
    expect(check.isSettled).toBe(false);
    keychain.answer();
    expect(await result).toEqual({ usable: true });
  });

  it('asks again on "Try again", and the bound starts over', async () => {
    const keychain = promptingKeytar();
    const told = events();
    const check = new KeychainCheck(keychain.store, told, 30);
    const result = check.run();
    await vi.waitFor(() => expect(told.waiting).toHaveBeenCalledOnce());
    check.retry();
    expect(told.checking).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(keychain.writes()).toBe(2));
    await vi.waitFor(() => expect(told.waiting).toHaveBeenCalledTimes(2));
    keychain.answer();
    expect(await result).toEqual({ usable: true });
  });

  it('starts without the keychain when the person chooses to, saying how to get it back', async () => {
    const keychain = promptingKeytar();
    const check = new KeychainCheck(keychain.store, events(), 30);
    const result = check.run();
    check.skip();
    const status = await result;
    expect(status.usable).toBe(false);
    expect(!status.usable && status.error.message).toBe(KEYCHAIN_SKIPPED_MESSAGE);
    // A late answer changes nothing, and a retry after the choice asks nothing.
    await vi.waitFor(() => expect(keychain.writes()).toBe(1));
    keychain.answer();
    check.retry();
    expect(keychain.writes()).toBe(1);
  });
});
