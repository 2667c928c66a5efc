// The sandbox gateway Paydesk runs itself for the built-in "Sandbox" profile: made with its keys
// on the very first start, started on every start at the address its profile names (so a
// profile copied from it keeps working after a restart), moved only when another program took
// its port, and told of the profile's new key. Apart from app.ts, which wires it at start.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { KeySize } from '../keys';
import type { KeyMaterial } from '../keys/material';
import { generateNativeKeyMaterial, publicKeyMaterial } from '../keys/native';
import type { Logger } from '../log';
import { startSandbox, type Sandbox } from '../sandbox';
import type { SecretStore } from '../secrets';
import type { Profiles } from '../store/sqlite/profiles';
import type { Profile } from '../store/profiles/profile';
import type { KeyService } from './keys';
import type { TeamProfiles } from './team/profiles';

/** What the embedded sandbox takes of the app's start options. */
export interface EmbeddedSandboxOptions {
  dataDir: string;
  secrets: SecretStore;
  sandboxDelayMs?: number;
  sandboxKeyBits?: KeySize;
  makeSandboxKey?: (bits: number) => Promise<KeyMaterial>;
  /** Screenshots only: the port of a first start (a free one otherwise). */
  sandboxPort?: number;
}

const SANDBOX_LOGIN = 'paydesk-sandbox';
const SANDBOX_ENDPOINT = '1111';

export async function registerWithSandbox(
  sandbox: Sandbox,
  secrets: SecretStore,
  profile: Profile,
  publicKeyPem: string,
): Promise<void> {
  const controlKey = await secrets.get(profile.id, 'control-key');
  if (!controlKey) return;
  sandbox.replaceMerchant({
    login: profile.login,
    controlKey,
    endpointId: profile.endpointId,
    publicKeyPem,
  });
}

/** The desk's own profiles, not the copies of its team's shared ones. */
export function ownProfiles(profiles: Profiles, teamProfiles: TeamProfiles): Profile[] {
  return profiles.list().filter((p) => !teamProfiles.mirror.isTeamCopy(p.id));
}

/** The port of a sandbox address on this computer (http://127.0.0.1:PORT/...), if it is one. */
function loopbackPortOf(baseUrl: string): number | undefined {
  try {
    const url = new URL(baseUrl);
    const port = Number(url.port);
    return url.protocol === 'http:' && url.hostname === '127.0.0.1' && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sandbox Paydesk runs itself. On the very first start (no profile at all) it makes the
 * "Sandbox" profile with a fresh control key and RSA key in the keychain; on every start it
 * runs the sandbox with demo orders on the loopback port it had (a free one on the first start,
 * or when another program took it) and points the profile at it.
 */
export async function startEmbeddedSandbox(
  options: EmbeddedSandboxOptions,
  profiles: Profiles,
  teamProfiles: TeamProfiles,
  keys: KeyService,
  log: Logger,
): Promise<
  { sandbox: Sandbox; profile: Profile; firstRun: boolean; moved?: string } | { message: string }
> {
  const own = ownProfiles(profiles, teamProfiles);
  let profile = own.find((p) => p.embedded);
  // A desk whose very first start is on a team already lists the team's copies: still its first.
  const firstRun = own.length === 0;
  if (!profile && !firstRun)
    return { message: 'No built-in sandbox profile; the user works with their own profiles.' };

  let controlKey = profile ? await options.secrets.get(profile.id, 'control-key') : undefined;
  const privateKeyPem = profile
    ? await options.secrets.get(profile.id, 'rsa-private-key')
    : undefined;
  // The sandbox's own secrets are Paydesk's to make: if the keychain lost them, make new ones.
  controlKey ??= randomUUID().toUpperCase();
  // The sandbox's own key, made and read with node:crypto alone (keys/native.ts). A new one (the
  // first start's, or a start's that finds the profile without one) is not on the way to ready:
  // made on libuv's pool, begun once start has returned so it does not take a core
  // from start's own work, and attached when made (KeyService.attachWhenMade: the sandbox learns
  // it, then the keychain keeps it, then the database its fingerprint). Whatever needs the key
  // waits for all three (PendingKeys). A start that ended before then leaves a profile without
  // a key (or no profile), or a key in the keychain whose fingerprint the database lacks: the
  // next start mends either here.
  const stored = privateKeyPem
    ? { ...publicKeyMaterial(privateKeyPem), privateKeyPkcs8Pem: privateKeyPem }
    : undefined;
  if (stored && profile && profile.keyFingerprint !== stored.fingerprint) {
    profile = profiles.attachKey(profile.id, stored.fingerprint);
    log.log('warn', "Mended the Sandbox profile: its key's fingerprint was not recorded", {
      profileId: profile.id,
    });
  }
  const merchant = { login: SANDBOX_LOGIN, controlKey, endpointId: SANDBOX_ENDPOINT };

  // The sandbox keeps its address across starts (the port its profile already names), so a
  // profile copied from it keeps working; only a port taken by another program moves it.
  const remembered = profile ? loopbackPortOf(profile.baseUrl) : undefined;
  const sandboxOptions = {
    database: join(options.dataDir, 'sandbox.sqlite'),
    merchants: [stored ? { ...merchant, publicKeyPem: stored.publicKeySpkiPem } : merchant],
    seed: 'demo' as const,
    // Listening at start (the profile names its port), its database, migrations and demo seed
    // made at its first use: a lookup, or the new key of a first start. Not on the way to ready.
    opens: 'when-used' as const,
    delayMs: options.sandboxDelayMs ?? 2_000,
    log: (message: string) => log.log('warn', message),
  };
  let moved: string | undefined;
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...sandboxOptions,
      port: remembered ?? options.sandboxPort ?? 0,
    });
  } catch (error) {
    if (remembered === undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE')
      throw error;
    sandbox = await startSandbox({ ...sandboxOptions, port: 0 });
    moved = `The built-in sandbox could not keep its address: port ${remembered} on this computer is taken by another program, so it runs at ${sandbox.baseUrl} for now. The Sandbox profile follows it; a profile you copied from it still names port ${remembered}. Close the other program and restart Paydesk to get the old address back.`;
    log.log('warn', 'The built-in sandbox moved to another port', {
      from: remembered,
      to: sandbox.port,
    });
  }
  try {
    if (!profile) {
      profile = profiles.create(
        {
          name: 'Sandbox',
          environment: 'sandbox',
          baseUrl: sandbox.baseUrl,
          endpointId: SANDBOX_ENDPOINT,
          login: SANDBOX_LOGIN,
        },
        { embedded: true },
      );
      log.log('info', 'First start: created the Sandbox profile', { profileId: profile.id });
    } else {
      profile = profiles.setBaseUrl(profile.id, sandbox.baseUrl);
    }
    await options.secrets.set(profile.id, 'control-key', controlKey);
    if (!stored) {
      const makeKey = options.makeSandboxKey ?? generateNativeKeyMaterial;
      const bits = options.sandboxKeyBits ?? 2048;
      const afterStart = new Promise<void>((resolve) => setImmediate(resolve));
      keys
        .attachWhenMade(
          profile.id,
          afterStart.then(() => makeKey(bits)),
          (material) =>
            sandbox.replaceMerchant({ ...merchant, publicKeyPem: material.publicKeySpkiPem }),
        )
        .catch((error: unknown) => {
          // Said again by whatever needs the key (PendingKeys); the next start makes a new one.
          log.log('error', "The Sandbox profile's RSA key could not be made", { error });
        });
    }
    return { sandbox, profile, firstRun, ...(moved ? { moved } : {}) };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
