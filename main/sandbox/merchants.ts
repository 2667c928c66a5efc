// The merchants the sandbox knows: login, control key, endpoint id and, for RSA-signed
// operations, the public key the merchant "handed to support". They come from merchants.json
// (CLI), from startSandbox's options, or from addMerchant at run time; they are kept in memory
// because they are configuration, not state, and a restarted sandbox reads them again. Five
// fields are checked by hand, not with zod: the app starts this sandbox at every start, and
// loading zod would be a share of that start (`npm run bench`, first start).

import { createPublicKey, type KeyObject } from 'node:crypto';

import { MIN_RSA_BITS } from '../gateway/oauth';

export type ResponseFormat = 'json' | 'lines';

/** What a merchants.json entry (or addMerchant) gives. */
export interface MerchantInput {
  login: string;
  controlKey: string;
  endpointId: string;
  /** SPKI ("BEGIN PUBLIC KEY") or PKCS#1 ("BEGIN RSA PUBLIC KEY") PEM; needed by RSA-SHA256 operations. */
  publicKeyPem?: string;
  /** Answer this merchant in the deployed key=value layout instead of JSON. */
  responseFormat?: ResponseFormat;
}

export interface Merchant extends Readonly<MerchantInput> {
  readonly publicKey?: KeyObject;
}

export class MerchantConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MerchantConfigError';
  }
}

const FIELDS = ['login', 'controlKey', 'endpointId', 'publicKeyPem', 'responseFormat'];

/** One entry's fields, checked; the first problem as [field, message]. */
function checkEntry(
  input: unknown,
): { ok: true; entry: MerchantInput } | { ok: false; field: string; message: string } {
  const fail = (field: string, message: string) => ({ ok: false as const, field, message });
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('', 'a merchant is an object with login, controlKey and endpointId');
  const entry = input as Record<string, unknown>;
  const unknown = Object.keys(entry).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined)
    return fail(unknown, `unknown field; a merchant has only ${FIELDS.join(', ')}`);
  const { login, controlKey, endpointId, publicKeyPem, responseFormat } = entry;
  if (typeof login !== 'string') return fail('login', 'login must be text');
  if (!login.trim()) return fail('login', 'login must not be empty');
  if (typeof controlKey !== 'string') return fail('controlKey', 'controlKey must be text');
  if (!controlKey) return fail('controlKey', 'controlKey must not be empty');
  const endpoint =
    typeof endpointId === 'string' ||
    (typeof endpointId === 'number' && Number.isInteger(endpointId))
      ? String(endpointId).trim()
      : '';
  if (!/^[1-9]\d{0,18}$/.test(endpoint))
    return fail('endpointId', 'endpointId must be a positive whole number, for example 1111');
  if (publicKeyPem !== undefined && typeof publicKeyPem !== 'string')
    return fail('publicKeyPem', 'publicKeyPem must be the text of a PEM public key');
  if (responseFormat !== undefined && responseFormat !== 'json' && responseFormat !== 'lines')
    return fail('responseFormat', 'responseFormat must be "json" or "lines"');
  return {
    ok: true,
    entry: {
      login: login.trim(),
      controlKey,
      endpointId: endpoint,
      ...(publicKeyPem !== undefined ? { publicKeyPem } : {}),
      ...(responseFormat !== undefined ? { responseFormat } : {}),
    },
  };
}

function loadPublicKey(pem: string, login: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new MerchantConfigError(
      `The publicKeyPem of merchant ${JSON.stringify(login)} is not a readable PEM public key; give the content of public_key.pem ("-----BEGIN PUBLIC KEY-----").`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new MerchantConfigError(
      `The public key of merchant ${JSON.stringify(login)} is not an RSA key.`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) {
    throw new MerchantConfigError(
      `The public key of merchant ${JSON.stringify(login)} has ${bits} bits; the gateway requires at least ${MIN_RSA_BITS}.`,
    );
  }
  return key;
}

/** Checks one merchant entry; the message names the entry and what to fix. */
export function parseMerchant(input: unknown, where = 'merchant'): Merchant {
  const checked = checkEntry(input);
  if (!checked.ok)
    throw new MerchantConfigError(
      `${where}${checked.field ? `.${checked.field}` : ''}: ${checked.message}.`,
    );
  const m = checked.entry;
  const pem = m.publicKeyPem?.trim() ? m.publicKeyPem : undefined;
  return Object.freeze({
    login: m.login,
    controlKey: m.controlKey,
    endpointId: m.endpointId,
    ...(pem ? { publicKeyPem: pem, publicKey: loadPublicKey(pem, m.login) } : {}),
    ...(m.responseFormat ? { responseFormat: m.responseFormat } : {}),
  });
}

/** Parses the content of merchants.json: a non-empty array of merchant entries. */
export function parseMerchantsJson(text: string): Merchant[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MerchantConfigError(
      `The merchants file is not valid JSON (${(error as Error).message}).`,
    );
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new MerchantConfigError(
      'The merchants file must hold a non-empty JSON array: [{ "login", "controlKey", "endpointId", "publicKeyPem" }].',
    );
  }
  return value.map((entry, i) => parseMerchant(entry, `merchants[${i}]`));
}

/** Merchants by endpoint id and by login; both must be unique. */
export class MerchantRegistry {
  private readonly byEndpoint = new Map<string, Merchant>();
  private readonly byLogin = new Map<string, Merchant>();

  add(input: MerchantInput): Merchant {
    const { login, controlKey, endpointId, publicKeyPem, responseFormat } = input;
    const merchant = parseMerchant({ login, controlKey, endpointId, publicKeyPem, responseFormat });
    if (this.byEndpoint.has(merchant.endpointId)) {
      throw new MerchantConfigError(
        `Endpoint id ${merchant.endpointId} is already used by another merchant.`,
      );
    }
    if (this.byLogin.has(merchant.login)) {
      throw new MerchantConfigError(
        `Login ${JSON.stringify(merchant.login)} is already used by another merchant.`,
      );
    }
    this.byEndpoint.set(merchant.endpointId, merchant);
    this.byLogin.set(merchant.login, merchant);
    return merchant;
  }

  /** Replaces the merchant of that endpoint (a rotated key, a new control key), or adds it. */
  replace(input: MerchantInput): Merchant {
    const previous = this.byEndpoint.get(input.endpointId.trim());
    if (previous) {
      this.byEndpoint.delete(previous.endpointId);
      this.byLogin.delete(previous.login);
    }
    try {
      return this.add(input);
    } catch (error) {
      if (previous) {
        this.byEndpoint.set(previous.endpointId, previous);
        this.byLogin.set(previous.login, previous);
      }
      throw error;
    }
  }

  byEndpointId(endpointId: string): Merchant | undefined {
    return this.byEndpoint.get(endpointId);
  }

  byLoginName(login: string): Merchant | undefined {
    return this.byLogin.get(login);
  }

  all(): Merchant[] {
    return [...this.byEndpoint.values()];
  }
}
