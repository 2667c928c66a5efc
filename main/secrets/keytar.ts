// The SecretStore over the OS keychain through keytar: service `paydesk`, account
// `${profileId}:${kind}`.
//
// Two things keytar does not do for us:
// - Windows Credential Manager holds at most 2560 bytes per credential, and a 4096-bit PKCS#8
//   PEM is ~3.3 KB (keytar fails with "The stub received bad data"). Values over CHUNK_BYTES are
//   therefore split over numbered accounts `${account}:1`, `:2`, ... behind a header in the main
//   account. It is done on every platform so the path the Windows build needs is the one the
//   real-keychain tests run on Linux.
// - With a locked Secret Service (and no way to show the unlock prompt), libsecret answers a
//   read with "nothing stored", not with an error. A miss is therefore confirmed by probe().

import { createHash, randomUUID } from 'node:crypto';

import { SecretStoreError, mapKeytarError, unavailable } from './errors';
import {
  isProfileAccount,
  type SecretKind,
  type SecretStore,
  type SecretStoreStatus,
  accountFor,
  checkSecretValue,
} from './store';

/** The part of keytar this adapter uses; tests pass a stand-in to replay the OS's errors. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials?(service: string): Promise<{ account: string; password: string }[]>;
}

export const DEFAULT_SERVICE = 'paydesk';
const CHUNK_BYTES = 2000;
const HEADER = 'paydesk-chunked:v1:';
const PROBE_ACCOUNT = 'paydesk-probe';

export interface KeytarSecretStoreOptions {
  service?: string;
  /** Loads keytar; a failure (libsecret missing) becomes SecretStoreUnavailableError. */
  loadKeytar?: () => Promise<KeytarApi>;
  platform?: NodeJS.Platform;
}

async function importKeytar(): Promise<KeytarApi> {
  // Loaded on first use, not at start-up: a machine without libsecret must still open Paydesk.
  const module = (await import('keytar')) as KeytarApi & { default?: KeytarApi };
  return module.default ?? module;
}

/** Splits text into pieces of at most CHUNK_BYTES UTF-8 bytes, never inside a character. */
export function splitUtf8(text: string, maxBytes = CHUNK_BYTES): string[] {
  const parts: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) {
      parts.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  if (current) parts.push(current);
  return parts;
}

// The header names the part count and a digest of the whole, so a write torn between parts is
// detected on read instead of handing the signer half of one key and half of another.
const digestOf = (value: string): string =>
  createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);

function parseHeader(stored: string): { parts: number; digest: string } | undefined {
  if (!stored.startsWith(HEADER)) return undefined;
  const match = /^(\d{1,3}):([0-9a-f]{32})$/.exec(stored.slice(HEADER.length));
  if (!match?.[1] || !match[2]) return undefined;
  return { parts: Number(match[1]), digest: match[2] };
}

export class KeytarSecretStore implements SecretStore {
  private readonly service: string;
  private readonly platform: NodeJS.Platform;
  private readonly loadKeytar: () => Promise<KeytarApi>;
  private keytar: Promise<KeytarApi> | undefined;

  constructor(options: KeytarSecretStoreOptions = {}) {
    this.service = options.service ?? DEFAULT_SERVICE;
    this.platform = options.platform ?? process.platform;
    this.loadKeytar = options.loadKeytar ?? importKeytar;
  }

  async get(profileId: string, kind: SecretKind): Promise<string | undefined> {
    const account = accountFor(profileId, kind);
    const stored = await this.call((k) => k.getPassword(this.service, account));
    if (stored === null) {
      const status = await this.probe();
      if (!status.usable) throw status.error;
      return undefined;
    }
    const header = parseHeader(stored);
    if (!header) return stored;
    const parts: string[] = [];
    for (let i = 1; i <= header.parts; i++) {
      const part = await this.call((k) => k.getPassword(this.service, `${account}:${i}`));
      if (part === null) throw damagedSecret();
      parts.push(part);
    }
    const value = parts.join('');
    if (digestOf(value) !== header.digest) throw damagedSecret();
    return value;
  }

  async set(profileId: string, kind: SecretKind, value: string): Promise<void> {
    const account = accountFor(profileId, kind);
    checkSecretValue(value);
    if (value.startsWith(HEADER)) {
      throw new SecretStoreError('This value cannot be stored: it looks like an internal header.');
    }
    const previousParts = await this.partCount(account);
    const secrets = [value];
    if (Buffer.byteLength(value, 'utf8') <= CHUNK_BYTES) {
      await this.call((k) => k.setPassword(this.service, account, value), secrets);
      await this.deleteParts(account, 1, previousParts);
      return;
    }
    const parts = splitUtf8(value);
    // Parts first, header last: until the header is written, a reader still sees the old value
    // (or, if parts were overwritten, a digest mismatch), never a silently wrong one.
    for (const [i, part] of parts.entries()) {
      await this.call((k) => k.setPassword(this.service, `${account}:${i + 1}`, part), secrets);
    }
    const header = `${HEADER}${parts.length}:${digestOf(value)}`;
    await this.call((k) => k.setPassword(this.service, account, header), secrets);
    await this.deleteParts(account, parts.length + 1, previousParts);
  }

  async delete(profileId: string, kind: SecretKind): Promise<boolean> {
    const account = accountFor(profileId, kind);
    const parts = await this.partCount(account);
    const deleted = await this.call((k) => k.deletePassword(this.service, account));
    await this.deleteParts(account, 1, parts);
    return deleted;
  }

  /**
   * Writes, reads back and deletes a throw-away entry: reading alone cannot tell a locked
   * Secret Service from an empty one (see the top of this file).
   */
  async probe(): Promise<SecretStoreStatus> {
    const token = randomUUID();
    // An account of its own: a probe asked again while an earlier one still waits on a prompt
    // (services/keychain-check.ts) must not read the other's token back as a wrong answer.
    const account = `${PROBE_ACCOUNT}:${token}`;
    try {
      await this.call((k) => k.setPassword(this.service, account, token));
      const back = await this.call((k) => k.getPassword(this.service, account));
      await this.call((k) => k.deletePassword(this.service, account));
      if (back !== token) return { usable: false, error: unavailable('locked', this.platform) };
      return { usable: true };
    } catch (error) {
      return { usable: false, error: mapKeytarError(error, this.platform) };
    }
  }

  private async partCount(account: string): Promise<number> {
    const stored = await this.call((k) => k.getPassword(this.service, account));
    return stored === null ? 0 : (parseHeader(stored)?.parts ?? 0);
  }

  private async deleteParts(account: string, from: number, to: number): Promise<void> {
    for (let i = from; i <= to; i++) {
      await this.call((k) => k.deletePassword(this.service, `${account}:${i}`));
    }
  }

  async holdsProfileSecrets(): Promise<boolean> {
    try {
      const keytar = await this.api();
      if (!keytar.findCredentials) return false;
      const found = await keytar.findCredentials(this.service);
      return found.some(({ account }) => isProfileAccount(account));
    } catch {
      return false;
    }
  }

  private async call<T>(
    operation: (keytar: KeytarApi) => Promise<T>,
    secrets: readonly string[] = [],
  ): Promise<T> {
    try {
      return await operation(await this.api());
    } catch (error) {
      if (error instanceof SecretStoreError) throw error;
      throw mapKeytarError(error, this.platform, secrets);
    }
  }

  private api(): Promise<KeytarApi> {
    this.keytar ??= this.loadKeytar().catch((error: unknown) => {
      // Not cached: installing libsecret and retrying must work without restarting Paydesk.
      this.keytar = undefined;
      throw error;
    });
    return this.keytar;
  }
}

function damagedSecret(): SecretStoreError {
  return new SecretStoreError(
    'A secret in the keychain is incomplete (a write was interrupted). Enter or generate it again.',
  );
}
