// The keychain read once per secret: every action signs with its profile's control key and, on
// a profile with one, its private key, and the OS keychain takes milliseconds to answer each
// read (a large key is read in parts, keytar.ts), more than the rest of a refund's own work
// (docs/performance.md, "The keychain on the refund path"). So each secret is read from the
// keychain once and kept here, in the main process, which already keeps the credentials of the
// profiles it sends for (services/connection.ts).
//
// The copy stays true because Paydesk is the keychain's only writer of its own accounts: one
// instance runs at a time (main/index.ts), and every change it makes (a key generated,
// imported or rotated, a profile removed, the built-in sandbox's keys) goes through this store,
// which keeps what it wrote. A change made meanwhile outside Paydesk (a keychain manager
// editing `paydesk` accounts) is read at the next start. A read that fails (a locked keychain)
// is not kept, nor a read that a change overtook.

import { accountFor, type SecretKind, type SecretStore, type SecretStoreStatus } from './store';

export class CachedSecretStore implements SecretStore {
  /** What the keychain holds per account, as read or written here; undefined: nothing. */
  private readonly known = new Map<string, string | undefined>();
  /** Changes begun per account: a read that a change overtook is not kept. */
  private readonly changes = new Map<string, number>();

  constructor(private readonly keychain: SecretStore) {}

  async get(profileId: string, kind: SecretKind): Promise<string | undefined> {
    const account = accountFor(profileId, kind);
    if (this.known.has(account)) return this.known.get(account);
    const before = this.changesOf(account);
    const value = await this.keychain.get(profileId, kind);
    if (this.changesOf(account) === before) this.known.set(account, value);
    return value;
  }

  async set(profileId: string, kind: SecretKind, value: string): Promise<void> {
    const account = accountFor(profileId, kind);
    const mine = this.change(account);
    await this.keychain.set(profileId, kind, value);
    if (this.changesOf(account) === mine) this.known.set(account, value);
  }

  async delete(profileId: string, kind: SecretKind): Promise<boolean> {
    const account = accountFor(profileId, kind);
    const mine = this.change(account);
    const deleted = await this.keychain.delete(profileId, kind);
    if (this.changesOf(account) === mine) this.known.set(account, undefined);
    return deleted;
  }

  probe(): Promise<SecretStoreStatus> {
    return this.keychain.probe();
  }

  async holdsProfileSecrets(): Promise<boolean> {
    return (await this.keychain.holdsProfileSecrets?.()) ?? false;
  }

  /** A change begins: what was known is not, until it has ended. Its number. */
  private change(account: string): number {
    this.known.delete(account);
    const number = this.changesOf(account) + 1;
    this.changes.set(account, number);
    return number;
  }

  private changesOf(account: string): number {
    return this.changes.get(account) ?? 0;
  }
}
