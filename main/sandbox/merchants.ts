// The merchants the sandbox knows: login, control key, endpoint id and, for RSA-signed
// operations, the public key the merchant "handed to support". They come from merchants.json
// (CLI), from startSandbox's options, or from addMerchant at run time; they are kept in memory
// because they are configuration, not state, and a restarted sandbox reads them again.

import { createPublicKey, type KeyObject } from 'node:crypto';

import { z } from 'zod';

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

const merchantSchema = z
  .object({
    login: z.string().trim().min(1, 'login must not be empty'),
    controlKey: z.string().min(1, 'controlKey must not be empty'),
    endpointId: z
      .union([z.string(), z.number().int()])
      .transform((v) => String(v).trim())
      .refine(
        (v) => /^[1-9]\d{0,18}$/.test(v),
        'endpointId must be a positive whole number, for example 1111',
      ),
    publicKeyPem: z.string().optional(),
    responseFormat: z.enum(['json', 'lines']).optional(),
  })
  .strict();

export class MerchantConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MerchantConfigError';
  }
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
  const parsed = merchantSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? issue.path.join('.') : '';
    throw new MerchantConfigError(
      `${where}${path ? `.${path}` : ''}: ${issue?.message ?? 'invalid entry'}.`,
    );
  }
  const m = parsed.data;
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
