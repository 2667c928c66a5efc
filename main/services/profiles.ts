// Profiles with their secrets: the row in SQLite and the control key in the keychain are
// created, changed and removed together, and nothing is left half-made when one step fails.

import { randomBytes } from 'node:crypto';

import { ValidationError } from '../gateway/errors';
import type { SecretStore } from '../secrets';
import type { Profiles } from '../store/sqlite/profiles';
import type { Profile, ProfileInput } from '../store/profiles/profile';
import { checkProfileText, ProfileError, validateProfileInput } from '../store/profiles/profile';
import type { Connections } from './connection';
import { PendingKeys } from './pending-keys';
import type { TeamProfiles, TeamProfileView } from './team/profiles';

export interface ProfileView extends Profile {
  /** The control key is in the keychain; the key itself is never shown again. */
  hasControlKey: boolean;
  hasPrivateKey: boolean;
  /** On a team, for a shared profile: who may change it, and the team's key against this desk's. */
  team?: TeamProfileView;
}

export type ConnectionCheck = { ok: true; message: string } | { ok: false; message: string };

export class ProfileService {
  constructor(
    private readonly profiles: Profiles,
    private readonly secrets: SecretStore,
    private readonly connections: Connections,
    /** The team's shared profiles, when this desk is on a team. */
    private readonly team?: TeamProfiles,
    /** Keys still being made (the built-in Sandbox's, at start): a profile is shown with its key. */
    private readonly pending: PendingKeys = new PendingKeys(),
  ) {}

  private async view(shown: Profile): Promise<ProfileView> {
    await this.pending.settled(shown.id);
    // Read again after the wait: the key's fingerprint is written when it is attached.
    const profile = this.profiles.get(shown.id) ?? shown;
    const [controlKey, privateKey] = await Promise.all([
      this.secrets.get(profile.id, 'control-key').catch(() => undefined),
      this.secrets.get(profile.id, 'rsa-private-key').catch(() => undefined),
    ]);
    const team = this.team?.viewOf(profile, Boolean(privateKey));
    return {
      ...profile,
      hasControlKey: Boolean(controlKey),
      hasPrivateKey: Boolean(privateKey),
      ...(team ? { team } : {}),
    };
  }

  async list(): Promise<ProfileView[]> {
    await this.team?.refreshIfStale();
    return Promise.all(this.profiles.list().map((p) => this.view(p)));
  }

  async get(id: string): Promise<ProfileView> {
    return this.view(this.profiles.require(id));
  }

  async create(input: ProfileInput & { controlKey: string }): Promise<ProfileView> {
    checkProfileText(input.controlKey, 'controlKey', 'control key');
    this.profiles.requireWritable('create a profile');
    const controlKey = input.controlKey.trim();
    if (!controlKey)
      throw new ProfileError('Enter the control key the gateway gave you.', 'controlKey');
    // On a team a new profile is a shared one: the team's database first, then this desk's copy.
    const team = this.team?.active ? this.team : undefined;
    const profile = team ? await team.create(input) : this.profiles.create(input);
    try {
      await this.secrets.set(profile.id, 'control-key', controlKey);
    } catch (error) {
      // no profile without its key
      if (team) await team.remove(profile.id);
      else this.profiles.remove(profile.id);
      throw error;
    }
    return this.view(profile);
  }

  /** Changes the profile; the control key only when a new one is given. */
  async update(id: string, input: ProfileInput & { controlKey?: string }): Promise<ProfileView> {
    // Every field is checked before the keychain changes, so a refused update changes nothing.
    validateProfileInput(input);
    this.profiles.requireWritable('change a profile');
    if (input.controlKey) checkProfileText(input.controlKey, 'controlKey', 'control key');
    const controlKey = input.controlKey?.trim();
    // A shared profile changes in the team's database first (admins only); its control key is
    // this desk's own, which anyone at the desk may set.
    const shared = this.team?.isShared(id) ? this.team : undefined;
    if (shared) await shared.update(id, input);
    if (controlKey) await this.secrets.set(id, 'control-key', controlKey);
    const profile = shared ? this.profiles.require(id) : this.profiles.update(id, input);
    this.connections.forget(id);
    return this.view(profile);
  }

  /** Removes a profile that has no journal entries, and its secrets. */
  async remove(id: string): Promise<void> {
    const profile = this.profiles.require(id);
    this.profiles.requireWritable('remove a profile');
    if (profile.embedded) {
      throw new ProfileError(
        'The built-in Sandbox profile cannot be removed; it is what a new user starts with.',
      );
    }
    if (this.team?.isShared(id)) await this.team.remove(id);
    else this.profiles.remove(id);
    this.connections.forget(id);
    await this.secrets.delete(id, 'control-key');
    await this.secrets.delete(id, 'rsa-private-key');
  }

  /**
   * Asks the gateway for the status of an order that cannot exist. A "no such order" answer
   * proves the address, the login and the checksum are right; a 403 proves they are not.
   */
  async testConnection(id: string): Promise<ConnectionCheck> {
    try {
      const { client } = await this.connections.clientFor(id);
      await client.status({ client_orderid: `pd-check-${randomBytes(6).toString('hex')}` });
      return {
        ok: true,
        message: 'Connected: the gateway answered and accepted this profile’s checksum.',
      };
    } catch (error) {
      if (
        error instanceof ValidationError &&
        !/control|checksum|signature|login/i.test(error.gatewayMessage)
      ) {
        return {
          ok: true,
          message: 'Connected: the gateway answered and accepted this profile’s checksum.',
        };
      }
      // AuthError, TransportError, a missing control key...: each message says what to fix.
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }
}
