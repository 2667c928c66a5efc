// The profile's RSA key for OAuth RSA-SHA256: generated or imported in main, the private key
// stored in the keychain only, the public key and fingerprint shown and exported.

import type { KeyMaterial, KeySize } from '../keys';
import type { SecretStore } from '../secrets';
import type { Profiles } from '../store/sqlite/profiles';
import type { KeyHistoryEntry, Profile } from '../store/profiles/profile';
import { PendingKeys } from './pending-keys';

/** node-forge, under main/keys, loads only when a key is made or read here, not at start. */
const keys = () => import('../keys');

export interface PublicKeyView {
  profileId: string;
  fingerprint: string;
  bits: number;
  /** The content of `public_key.pem`: what the operator's support asks for. */
  publicKeySpkiPem: string;
  publicKeyPkcs1Pem: string;
  history: KeyHistoryEntry[];
}

export class KeyService {
  constructor(
    private readonly profiles: Profiles,
    private readonly secrets: SecretStore,
    /**
     * Told when a profile's key changes (the embedded sandbox registers the new public key);
     * attaching waits for it, so a request signed with the new key finds it registered.
     */
    private readonly onKeyChanged: (
      profile: Profile,
      publicKeySpkiPem: string,
    ) => void | Promise<void> = () => undefined,
    /** On a team: who may change a shared profile's key, and the team's record of it. */
    private readonly team?: {
      checkKey(profileId: string, fingerprint: string | undefined): void;
      keyAttached(profile: Profile): Promise<void>;
    },
    /** Keys still being made (the built-in Sandbox's, at start): every call here waits for them. */
    private readonly pending: PendingKeys = new PendingKeys(),
    /** Makes a new key pair: node-forge's in the app; the screenshots pass a fixed test-only key. */
    private readonly makeKey?: (bits: KeySize) => Promise<KeyMaterial>,
  ) {}

  async generate(profileId: string, bits: KeySize = 4096): Promise<PublicKeyView> {
    this.profiles.require(profileId);
    this.profiles.requireWritable('attach a new key');
    this.team?.checkKey(profileId, undefined);
    const made = this.makeKey ? this.makeKey(bits) : (await keys()).generateKeyPair(bits);
    return this.attach(profileId, await made);
  }

  async import(profileId: string, pem: string, passphrase?: string): Promise<PublicKeyView> {
    this.profiles.require(profileId);
    this.profiles.requireWritable('attach a new key');
    return this.attach(profileId, await (await keys()).importPrivateKey(pem, passphrase));
  }

  /** Import's checks without storing anything: what the key is, or why it would be refused. */
  async checkImport(
    profileId: string,
    pem: string,
    passphrase?: string,
  ): Promise<{ fingerprint: string; bits: number }> {
    // The rules compare with the profile's current key, which may still be being attached.
    await this.pending.settled(profileId);
    this.profiles.require(profileId);
    const material = await (await keys()).importPrivateKey(pem, passphrase);
    this.profiles.checkKey(profileId, material.fingerprint);
    this.team?.checkKey(profileId, material.fingerprint);
    return { fingerprint: material.fingerprint, bits: material.bits };
  }

  /** The profile's current public key, derived from the private key in the keychain. */
  async current(profileId: string): Promise<PublicKeyView | null> {
    await this.pending.settled(profileId);
    this.profiles.require(profileId);
    const pem = await this.secrets.get(profileId, 'rsa-private-key');
    if (!pem) return null;
    const material = await (await keys()).importPrivateKey(pem);
    return this.view(profileId, material);
  }

  /**
   * Stores and attaches key material (generated, imported, or made elsewhere). A key still being
   * made for the profile is attached first: the new one replaces it, never the reverse.
   */
  async attach(profileId: string, material: KeyMaterial): Promise<PublicKeyView> {
    await this.pending.settled(profileId);
    return this.store(profileId, material);
  }

  /**
   * Attaches a key that is still being made (the built-in Sandbox's, at start) once `making`
   * gives it, after `beforeAttach` (the sandbox learns its public key first); until then every
   * call on this profile's key waits. Resolves when attached; rejects when it could not be
   * (PendingKeys keeps why, for the calls that need the key; the next start mends the profile).
   */
  attachWhenMade(
    profileId: string,
    making: Promise<KeyMaterial>,
    beforeAttach: (material: KeyMaterial) => void = () => undefined,
  ): Promise<PublicKeyView> {
    const work = making.then((material) => {
      beforeAttach(material);
      return this.store(profileId, material);
    });
    this.pending.track(profileId, work);
    return work;
  }

  private async store(profileId: string, material: KeyMaterial): Promise<PublicKeyView> {
    // The rule first: a refused key must not replace the one in the keychain.
    this.profiles.requireWritable('attach a new key');
    this.profiles.checkKey(profileId, material.fingerprint);
    this.team?.checkKey(profileId, material.fingerprint);
    await this.secrets.set(profileId, 'rsa-private-key', material.privateKeyPkcs8Pem);
    const profile = this.profiles.attachKey(profileId, material.fingerprint);
    this.pending.attached(profileId);
    await this.onKeyChanged(profile, material.publicKeySpkiPem);
    // On a team an admin's key becomes the team's key (after this desk's: see docs/team.md).
    await this.team?.keyAttached(profile);
    return this.view(profileId, material);
  }

  private view(
    profileId: string,
    material: {
      fingerprint: string;
      bits: number;
      publicKeySpkiPem: string;
      publicKeyPkcs1Pem: string;
    },
  ): PublicKeyView {
    return {
      profileId,
      fingerprint: material.fingerprint,
      bits: material.bits,
      publicKeySpkiPem: material.publicKeySpkiPem,
      publicKeyPkcs1Pem: material.publicKeyPkcs1Pem,
      history: this.profiles.keyHistory(profileId),
    };
  }
}
