// Turns a profile and its keychain secrets into gateway credentials. Secrets are read when an
// operation needs them and go no further than the client that signs with them.

import { GatewayClient, type ClientOptions } from '../gateway/client';
import type { Credentials } from '../gateway/request';
import type { SecretStore } from '../secrets';
import type { Profile, Profiles } from '../store/profiles';
import { ServiceError } from './errors';

export type ClientFactory = (credentials: Credentials) => GatewayClient;

export const defaultClientFactory =
  (options: ClientOptions = {}): ClientFactory =>
  (credentials) =>
    new GatewayClient(credentials, options);

export class Connections {
  constructor(
    private readonly profiles: Profiles,
    private readonly secrets: SecretStore,
    private readonly makeClient: ClientFactory = defaultClientFactory(),
  ) {}

  async credentialsFor(profile: Profile): Promise<Credentials> {
    const controlKey = await this.secrets.get(profile.id, 'control-key');
    if (!controlKey) {
      throw new ServiceError(
        'NO_SECRET',
        `The profile "${profile.name}" has no control key in the keychain; enter it in Profiles.`,
        'controlKey',
      );
    }
    const privateKeyPem = await this.secrets.get(profile.id, 'rsa-private-key');
    return {
      baseUrl: profile.baseUrl,
      endpointId: profile.endpointId,
      login: profile.login,
      controlKey,
      ...(privateKeyPem ? { privateKeyPem } : {}),
    };
  }

  async clientFor(profileId: string): Promise<{ profile: Profile; client: GatewayClient }> {
    const profile = this.profiles.require(profileId);
    return { profile, client: this.makeClient(await this.credentialsFor(profile)) };
  }
}
