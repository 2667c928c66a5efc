// A real SecretStore kept in memory, for tests and for the browser end-to-end harness. It
// validates like the keytar adapter and can be made unavailable, so the "keychain missing" and
// "keychain locked" paths of the app are testable without an OS keychain.

import { type SecretStoreUnavailableError, unavailable } from './errors';
import {
  type SecretKind,
  type SecretStore,
  type SecretStoreStatus,
  accountFor,
  checkSecretValue,
  isProfileAccount,
} from './store';

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  private outage: SecretStoreUnavailableError | undefined;

  /** From now on every call fails as the real keychain would for `reason`. */
  makeUnavailable(
    reason: SecretStoreUnavailableError['reason'] = 'locked',
    platform: NodeJS.Platform = process.platform,
  ): void {
    this.outage = unavailable(reason, platform);
  }

  makeAvailable(): void {
    this.outage = undefined;
  }

  holdsProfileSecrets(): Promise<boolean> {
    return Promise.resolve(!this.outage && [...this.values.keys()].some(isProfileAccount));
  }

  get(profileId: string, kind: SecretKind): Promise<string | undefined> {
    return this.run(() => this.values.get(accountFor(profileId, kind)));
  }

  set(profileId: string, kind: SecretKind, value: string): Promise<void> {
    return this.run(() => {
      const account = accountFor(profileId, kind);
      checkSecretValue(value);
      this.values.set(account, value);
    });
  }

  delete(profileId: string, kind: SecretKind): Promise<boolean> {
    return this.run(() => this.values.delete(accountFor(profileId, kind)));
  }

  probe(): Promise<SecretStoreStatus> {
    return Promise.resolve(this.outage ? { usable: false, error: this.outage } : { usable: true });
  }

  /** The accounts held, for tests that check what was stored and what was cleaned up. */
  accounts(): string[] {
    return [...this.values.keys()].sort();
  }

  private run<T>(operation: () => T): Promise<T> {
    // Async like the real store, so a caller that forgets to await fails here too.
    return new Promise((resolve) => {
      if (this.outage) throw this.outage;
      resolve(operation());
    });
  }
}
