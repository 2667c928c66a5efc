import { describe, expect, it } from 'vitest';

import {
  type KeytarApi,
  KeytarSecretStore,
  MemorySecretStore,
  SecretStoreError,
  SecretStoreUnavailableError,
  mapKeytarError,
} from '../../../main/secrets';
import { splitUtf8 } from '../../../main/secrets/keytar';
import { LONG_SECRET, secretStoreContract } from './contract';

/**
 * keytar as the OS keychain behaves, over a Map: including what libsecret does when the login
 * collection is locked and no unlock prompt can be shown (reads answer "nothing", writes fail).
 * The error texts are the ones keytar really threw here (see main/secrets/errors.ts).
 */
class StandInKeytar implements KeytarApi {
  readonly items = new Map<string, string>();
  mode: 'ok' | 'locked' | 'no-bus' | 'echo-secret' = 'ok';

  private key = (service: string, account: string) => `${service}/${account}`;

  private fail(): void {
    if (this.mode === 'no-bus') throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  }

  getPassword(service: string, account: string): Promise<string | null> {
    this.fail();
    if (this.mode === 'locked') return Promise.resolve(null);
    return Promise.resolve(this.items.get(this.key(service, account)) ?? null);
  }

  setPassword(service: string, account: string, password: string): Promise<void> {
    this.fail();
    if (this.mode === 'locked') throw new Error('Cannot create an item in a locked collection');
    if (this.mode === 'echo-secret') throw new Error(`Invalid value "${password}" for ${account}`);
    // Windows Credential Manager's limit, which the adapter must stay under.
    if (Buffer.byteLength(password, 'utf8') > 2560) throw new Error('The stub received bad data.');
    this.items.set(this.key(service, account), password);
    return Promise.resolve();
  }

  deletePassword(service: string, account: string): Promise<boolean> {
    this.fail();
    if (this.mode === 'locked') return Promise.resolve(false);
    return Promise.resolve(this.items.delete(this.key(service, account)));
  }
}

const overStandIn = (keytar = new StandInKeytar()) =>
  new KeytarSecretStore({ service: 'paydesk', loadKeytar: () => Promise.resolve(keytar) });

secretStoreContract('MemorySecretStore', () => new MemorySecretStore());
secretStoreContract('KeytarSecretStore over a stand-in keytar', () => overStandIn());

describe('MemorySecretStore', () => {
  it('can be made unavailable and available again, as a locked keychain is unlocked', async () => {
    const store = new MemorySecretStore();
    await store.set('p1', 'control-key', 'secret-1');
    store.makeUnavailable('locked', 'linux');
    const status = await store.probe();
    expect(status.usable).toBe(false);
    if (!status.usable) expect(status.error.reason).toBe('locked');
    await expect(store.get('p1', 'control-key')).rejects.toBeInstanceOf(
      SecretStoreUnavailableError,
    );
    await expect(store.set('p1', 'control-key', 'x')).rejects.toThrow(/login keyring/);
    await expect(store.delete('p1', 'control-key')).rejects.toThrow(SecretStoreUnavailableError);
    store.makeAvailable();
    expect(await store.get('p1', 'control-key')).toBe('secret-1');
    expect(store.accounts()).toEqual(['p1:control-key']);
  });
});

describe('KeytarSecretStore', () => {
  it('uses service "paydesk" and account "<profile>:<kind>"', async () => {
    const keytar = new StandInKeytar();
    const store = new KeytarSecretStore({ loadKeytar: () => Promise.resolve(keytar) });
    await store.set('0f0e', 'control-key', 'k');
    expect([...keytar.items.keys()]).toEqual(['paydesk/0f0e:control-key']);
  });

  it('splits a 4096-bit-sized key into entries Windows accepts, and cleans them all up', async () => {
    const keytar = new StandInKeytar();
    const store = overStandIn(keytar);
    await store.set('p', 'rsa-private-key', LONG_SECRET);
    const accounts = [...keytar.items.keys()];
    expect(accounts).toEqual([
      'paydesk/p:rsa-private-key:1',
      'paydesk/p:rsa-private-key:2',
      'paydesk/p:rsa-private-key',
    ]);
    expect(keytar.items.get('paydesk/p:rsa-private-key')).toMatch(/^paydesk-chunked:v1:2:/);
    await store.set('p', 'rsa-private-key', 'short now');
    expect([...keytar.items.keys()]).toEqual(['paydesk/p:rsa-private-key']);
    await store.set('p', 'rsa-private-key', LONG_SECRET);
    expect(await store.delete('p', 'rsa-private-key')).toBe(true);
    expect(keytar.items.size).toBe(0);
  });

  it('detects a write torn between parts instead of returning a mixed value', async () => {
    const keytar = new StandInKeytar();
    const store = overStandIn(keytar);
    await store.set('p', 'rsa-private-key', LONG_SECRET);
    keytar.items.set('paydesk/p:rsa-private-key:2', 'something else');
    await expect(store.get('p', 'rsa-private-key')).rejects.toThrow(/incomplete/);
    keytar.items.delete('paydesk/p:rsa-private-key:2');
    await expect(store.get('p', 'rsa-private-key')).rejects.toThrow(/incomplete/);
  });

  it('refuses to store a value that would read back as a header', async () => {
    await expect(overStandIn().set('p', 'control-key', 'paydesk-chunked:v1:2:x')).rejects.toThrow(
      SecretStoreError,
    );
  });

  it('does not mistake a locked keychain, which reads as empty, for a missing secret', async () => {
    const keytar = new StandInKeytar();
    const store = overStandIn(keytar);
    await store.set('p', 'control-key', 'the-key');
    keytar.mode = 'locked';
    const error = await store.get('p', 'control-key').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect((error as SecretStoreUnavailableError).reason).toBe('locked');
    const status = await store.probe();
    expect(status.usable).toBe(false);
    keytar.mode = 'ok';
    expect(await store.get('p', 'control-key')).toBe('the-key');
    expect(await store.probe()).toEqual({ usable: true });
    expect(keytar.items.size).toBe(1); // the probe cleaned up after itself
  });

  it('turns a keytar that cannot load into "not installed", and loads again on the next call', async () => {
    let attempts = 0;
    const keytar = new StandInKeytar();
    const store = new KeytarSecretStore({
      platform: 'linux',
      loadKeytar: () => {
        attempts += 1;
        return attempts === 1
          ? Promise.reject(
              new Error(
                'libsecret-1.so.0: cannot open shared object file: No such file or directory',
              ),
            )
          : Promise.resolve(keytar);
      },
    });
    const status = await store.probe();
    expect(status.usable).toBe(false);
    if (!status.usable) {
      expect(status.error.reason).toBe('not-installed');
      expect(status.error.message).toMatch(/apt install libsecret-1-0/);
    }
    expect(await store.probe()).toEqual({ usable: true });
  });

  it('never lets a secret into an error, even when the OS message quotes it', async () => {
    const keytar = new StandInKeytar();
    keytar.mode = 'echo-secret';
    const secret = 'AF4B5DE6-3468-424C-A922-C1DAD7CB4509';
    const error = await overStandIn(keytar)
      .set('p', 'control-key', secret)
      .then(
        () => expect.unreachable('the write should fail'),
        (e: unknown) => e as SecretStoreUnavailableError,
      );
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    const everything = `${String(error)} ${error.message} ${error.detail ?? ''} ${JSON.stringify(error)} ${error.stack ?? ''}`;
    expect(everything).not.toContain(secret);
    expect(error.detail).toContain('[secret]');
  });
});

describe('mapping what keytar throws to what the user should do', () => {
  // Texts keytar 7.9 threw on this machine (Linux, libsecret), and macOS Security framework texts.
  const cases: [string, NodeJS.Platform, string, RegExp][] = [
    [
      'Cannot autolaunch D-Bus without X11 $DISPLAY',
      'linux',
      'no-session-bus',
      /D-Bus session bus.*gnome-keyring/,
    ],
    [
      'The name org.freedesktop.secrets was not provided by any .service files',
      'linux',
      'no-provider',
      /no Secret Service is running.*apt install gnome-keyring/,
    ],
    [
      'GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files',
      'linux',
      'no-provider',
      /gnome-keyring/,
    ],
    [
      'Cannot create an item in a locked collection',
      'linux',
      'locked',
      /Unlock or create the login keyring/,
    ],
    [
      'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
      'linux',
      'locked',
      /login keyring/,
    ],
    ['User interaction is not allowed.', 'darwin', 'locked', /Keychain Access/],
    ['The user name or passphrase you entered is not correct.', 'darwin', 'denied', /refused/],
    ['Something nobody anticipated', 'linux', 'failed', /It said: Something nobody anticipated/],
  ];
  it.each(cases)('%s (%s) -> %s', (message, platform, reason, guidance) => {
    const error = mapKeytarError(new Error(message), platform);
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(guidance);
    expect(error.detail).toBe(message);
  });
});

describe('splitUtf8', () => {
  it('never splits a character and keeps every piece within the byte budget', () => {
    const text = 'a€😀'.repeat(500);
    const parts = splitUtf8(text, 10);
    expect(parts.join('')).toBe(text);
    for (const part of parts) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(10);
  });
});
