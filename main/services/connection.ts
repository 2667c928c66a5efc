// Turns a profile and its keychain secrets into gateway credentials. Secrets are read when an
// operation needs them and go no further than the client that signs with them.

import { GatewayClient, type ClientOptions } from '../gateway/client';
import { forgetPrivateKey, type Credentials } from '../gateway/request';
import type { SecretStore } from '../secrets';
import type { Profiles } from '../store/sqlite/profiles';
import type { Profile } from '../store/profiles/profile';
import { ServiceError } from './errors';
import { PendingKeys } from './pending-keys';

export type ClientFactory = (credentials: Credentials) => GatewayClient;

export const defaultClientFactory =
  (options: ClientOptions = {}): ClientFactory =>
  (credentials) =>
    new GatewayClient(credentials, options);

/** Whether two sets of credentials would sign and send the very same requests. */
function sameCredentials(a: Credentials, b: Credentials): boolean {
  return (
    a.baseUrl === b.baseUrl &&
    a.endpointId === b.endpointId &&
    a.login === b.login &&
    a.controlKey === b.controlKey &&
    a.privateKeyPem === b.privateKeyPem
  );
}

export class Connections {
  /**
   * One client per profile, kept while the profile's credentials stay the same: its
   * connections stay open between operations and its parsed key is reused. The secrets are
   * still read for every operation, so a key or control key changed anywhere (rotation,
   * import, the embedded sandbox making new ones) gives a new client at the next operation;
   * `forget` drops the old one at once.
   */
  private readonly clients = new Map<string, { credentials: Credentials; client: GatewayClient }>();

  constructor(
    private readonly profiles: Profiles,
    private readonly secrets: SecretStore,
    private readonly makeClient: ClientFactory = defaultClientFactory(),
    /** Keys still being made (the built-in Sandbox's, at start): a request waits for its key. */
    private readonly pending: PendingKeys = new PendingKeys(),
  ) {}

  async credentialsFor(profile: Profile): Promise<Credentials> {
    await this.pending.settled(profile.id);
    const controlKey = await this.secrets.get(profile.id, 'control-key');
    if (!controlKey) {
      throw new ServiceError(
        'NO_SECRET',
        `The profile "${profile.name}" has no control key in the keychain; enter it in Profiles.`,
        'controlKey',
      );
    }
    const privateKeyPem = await this.secrets.get(profile.id, 'rsa-private-key');
    // A key that was to be made and could not be: say so, rather than send without it.
    const failure = privateKeyPem ? undefined : this.pending.failure(profile.id);
    if (failure) throw new ServiceError('NO_SECRET', failure, 'key');
    return {
      baseUrl: profile.baseUrl,
      endpointId: profile.endpointId,
      login: profile.login,
      controlKey,
      ...(privateKeyPem ? { privateKeyPem } : {}),
    };
  }

  async clientFor(profileId: string): Promise<{ profile: Profile; client: GatewayClient }> {
    // The profile is read once its key is attached: the v4 operations' rules read its fingerprint.
    await this.pending.settled(profileId);
    const profile = this.profiles.require(profileId);
    const credentials = await this.credentialsFor(profile);
    const kept = this.clients.get(profileId);
    if (kept && sameCredentials(kept.credentials, credentials)) {
      return { profile, client: kept.client };
    }
    const client = this.makeClient(credentials);
    this.clients.set(profileId, { credentials, client });
    if (kept) this.retire(kept.credentials, kept.client);
    return { profile, client };
  }

  /** Drops a profile's client and parsed key (its key or settings changed, or it was removed). */
  forget(profileId: string): void {
    const kept = this.clients.get(profileId);
    if (!kept) return;
    this.clients.delete(profileId);
    this.retire(kept.credentials, kept.client);
  }

  /** Drops every client: the trust settings (Settings -> Network) changed for all of them. */
  forgetAll(): void {
    for (const profileId of [...this.clients.keys()]) this.forget(profileId);
  }

  private retire(credentials: Credentials, client: GatewayClient): void {
    client.close();
    if (credentials.privateKeyPem) forgetPrivateKey(credentials.privateKeyPem);
  }
}
