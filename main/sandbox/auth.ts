// Authentication exactly as a strict gateway does it: Scheme A (`control` = SHA-1 over the
// operation's formula) and Scheme B (OAuth 1.0a, HMAC-SHA1 keyed `control_key&`, or RSA-SHA256
// verified with the merchant's public key). The formulas and schemes come from the operation
// table, and the checksum and base string from the client's own code, so client and sandbox
// cannot drift apart: a disagreement between them is a bug in the spec reading, caught by tests.

import { verify } from 'node:crypto';

import { formatMinor } from '../gateway/amount';
import { controlChecksum } from '../gateway/checksum';
import { InputError } from '../gateway/errors';
import {
  hmacSha1Signature,
  parseAuthorizationHeader,
  signatureBaseString,
  type Pair,
} from '../gateway/oauth';
import type { OperationDef } from '../gateway/operations';
import { refuse } from './codes';
import type { Store } from './db';
import type { Merchant, MerchantRegistry } from './merchants';
import { orderTermsOf } from './readings';

/** OAuth timestamps may be this far from the sandbox's wall clock, and nonces are kept as long. */
export const OAUTH_WINDOW_SECONDS = 5 * 60;

const OAUTH_REQUIRED = [
  'oauth_consumer_key',
  'oauth_signature_method',
  'oauth_signature',
  'oauth_timestamp',
  'oauth_nonce',
  'oauth_version',
] as const;

/**
 * Whether two texts are equal, in a time that depends on their length only (a checksum or a
 * signature is never compared character by character until the first difference). Compares
 * UTF-16 code units: no Buffer per comparison, and no lone surrogate folds into U+FFFD.
 */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export interface ControlCheck {
  def: OperationDef;
  merchant: Merchant;
  endpointId: string;
  /** Validated body fields, without control and login. */
  fields: Readonly<Record<string, string>>;
  login: string | undefined;
  control: string | undefined;
  /**
   * Where the order the request names by orderid is read: a capture or return sent without
   * amount and currency may be signed with the order's (the operator's PHP library does so;
   * docs/sandbox.md, "Fidelity to real clients"). Read only for such a request whose checksum
   * does not match the spec's reading: every other request (status, the busiest, above all) is
   * checked without reading the order.
   */
  store: Store;
}

/**
 * `control` as the notes write it: exactly 40 lowercase hex digits. Upper-case hex or spaces
 * around it are refused, not forgiven, so a client bug shows here and not in production.
 */
function checkControlForm(control: string): void {
  if (/^[0-9a-f]{40}$/.test(control)) return;
  const trimmed = control.trim();
  const problem =
    trimmed !== control
      ? 'it has spaces around it'
      : /^[0-9a-fA-F]{40}$/.test(control)
        ? 'it is written in upper-case hex'
        : `it is ${control.length} characters long or not hex`;
  throw refuse(
    'BAD_CONTROL',
    `control must be the SHA-1 checksum written as exactly 40 lowercase hex digits, with nothing around it; ${problem}.`,
  );
}

export function verifyControl({
  def,
  merchant,
  endpointId,
  fields,
  login,
  control,
  store,
}: ControlCheck): void {
  if (def.auth.kind !== 'control')
    throw new Error(`${def.name} is not signed with a control checksum`);
  const formula = def.auth.formula;
  if (formula.includes('login')) {
    if (!login)
      throw refuse(
        'MISSING_FIELD',
        `${def.name} needs the field login (the merchant login); it enters the control checksum.`,
      );
  }
  if (login !== undefined && login !== merchant.login) {
    throw refuse(
      'UNKNOWN_MERCHANT',
      `The login ${JSON.stringify(login)} does not belong to endpoint ${endpointId}.`,
    );
  }
  if (!control)
    throw refuse('MISSING_FIELD', `${def.name} needs the field control (the request checksum).`);
  checkControlForm(control);
  const inputs = { endpointId, login: merchant.login, controlKey: merchant.controlKey, fields };
  if (sameText(control, controlChecksum(formula, inputs))) return;
  const formulaText = formula.join(' + ');
  // Capture and return may leave amount and currency out. The spec's reading then leaves them
  // out of the checksum too; the operator's PHP library signs the order's amount and currency
  // anyway. A gateway its library works against accepts both, and so does the sandbox.
  const amountTerms = formula.includes('amount') && formula.includes('currency');
  const unsent = amountTerms && fields.amount === undefined && fields.currency === undefined;
  if (!unsent) {
    throw refuse(
      'BAD_CONTROL',
      `The control checksum does not match: expected SHA-1 over ${formulaText} (amount in minor units), in lowercase hex.`,
    );
  }
  const terms = orderTermsOf(store, endpointId, fields.orderid);
  const withOrder = terms
    ? { ...fields, amount: formatMinor(terms.minor), currency: terms.currency }
    : undefined;
  if (withOrder && sameText(control, controlChecksum(formula, { ...inputs, fields: withOrder })))
    return;
  const without = formula.filter((part) => part !== 'amount' && part !== 'currency').join(' + ');
  throw refuse(
    'BAD_CONTROL',
    `The control checksum does not match. ${def.name} was sent without amount and currency, so the checksum is expected as SHA-1 over ${without} (amount and currency left out)` +
      (terms
        ? `, or over ${formulaText} with the order's amount in minor units (${terms.minor}) and its currency (${terms.currency})`
        : '') +
      ', in lowercase hex.',
  );
}

export interface OAuthCheck {
  def: OperationDef;
  merchant: Merchant;
  registry: MerchantRegistry;
  store: Store;
  /** The request URL as the client addressed it (scheme, Host header, path and query). */
  url: string;
  /** The body exactly as received, in order, oauth_* pairs included. */
  bodyPairs: readonly Pair[];
  authorization: string | undefined;
  /** Wall-clock seconds: the client signs with its real clock, never the movable one. */
  nowSeconds: number;
}

/** Merges oauth_* from the header and the body; the same name with two values is refused. */
function oauthParams(
  authorization: string | undefined,
  bodyPairs: readonly Pair[],
): Record<string, string> {
  let header: Record<string, string> = {};
  if (authorization !== undefined) {
    try {
      header = parseAuthorizationHeader(authorization);
    } catch (error) {
      throw refuse(
        'BAD_SIGNATURE',
        error instanceof InputError ? error.message : 'The Authorization header could not be read.',
      );
    }
  }
  const merged: Record<string, string> = { ...header };
  for (const [name, value] of bodyPairs) {
    if (!name.startsWith('oauth_')) continue;
    const fromHeader = merged[name];
    if (fromHeader !== undefined && fromHeader !== value) {
      throw refuse(
        'BAD_SIGNATURE',
        `${name} differs between the Authorization header and the body.`,
      );
    }
    merged[name] = value;
  }
  delete merged.realm;
  return merged;
}

export function verifyOAuth(check: OAuthCheck): void {
  const { def, merchant, registry, store, url, bodyPairs, authorization, nowSeconds } = check;
  const expectedMethod =
    def.auth.kind === 'oauth-hmac'
      ? 'HMAC-SHA1'
      : def.auth.kind === 'oauth-rsa'
        ? 'RSA-SHA256'
        : undefined;
  if (!expectedMethod) throw new Error(`${def.name} is not signed with OAuth`);

  const params = oauthParams(authorization, bodyPairs);
  if (Object.keys(params).length === 0) {
    throw refuse(
      'BAD_SIGNATURE',
      `${def.name} must be signed with OAuth 1.0a ${expectedMethod}: send an Authorization: OAuth header.`,
    );
  }
  for (const name of OAUTH_REQUIRED) {
    if (!params[name]) throw refuse('BAD_SIGNATURE', `The OAuth parameters lack ${name}.`);
  }
  if (params.oauth_version !== '1.0')
    throw refuse(
      'BAD_SIGNATURE',
      `oauth_version must be 1.0, got ${JSON.stringify(params.oauth_version)}.`,
    );
  if (params.oauth_signature_method !== expectedMethod) {
    throw refuse(
      'BAD_SIGNATURE',
      `${def.name} is signed with ${expectedMethod}; oauth_signature_method was ${JSON.stringify(params.oauth_signature_method)}.`,
    );
  }
  const consumerKey = params.oauth_consumer_key ?? '';
  const owner = registry.byLoginName(consumerKey);
  if (!owner)
    throw refuse(
      'UNKNOWN_MERCHANT',
      `oauth_consumer_key ${JSON.stringify(consumerKey)} is not a known merchant login.`,
    );
  if (owner.endpointId !== merchant.endpointId) {
    throw refuse(
      'UNKNOWN_MERCHANT',
      `The login ${JSON.stringify(consumerKey)} does not belong to endpoint ${merchant.endpointId}.`,
    );
  }
  const timestamp = params.oauth_timestamp ?? '';
  if (!/^\d{1,12}$/.test(timestamp))
    throw refuse('BAD_SIGNATURE', 'oauth_timestamp must be whole seconds since 1970.');
  if (Math.abs(nowSeconds - Number(timestamp)) > OAUTH_WINDOW_SECONDS) {
    throw refuse(
      'STALE_TIMESTAMP',
      `oauth_timestamp ${timestamp} is more than ${OAUTH_WINDOW_SECONDS / 60} minutes from the gateway's time ${nowSeconds}; check this computer's clock.`,
    );
  }

  // The base string covers the body as received plus every oauth_* parameter but the signature,
  // each once, whether it travelled in the header or the body.
  const fromBody = new Set(bodyPairs.map(([name]) => name));
  const pairs: Pair[] = [
    ...bodyPairs,
    ...Object.entries(params).filter(([name]) => name !== 'oauth_signature' && !fromBody.has(name)),
  ];
  const base = signatureBaseString('POST', url, pairs);
  const signature = params.oauth_signature ?? '';
  if (expectedMethod === 'HMAC-SHA1') {
    if (!sameText(signature, hmacSha1Signature(base, merchant.controlKey))) {
      throw refuse(
        'BAD_SIGNATURE',
        'The OAuth HMAC-SHA1 signature does not verify: the request was changed after signing, or the key is wrong.',
      );
    }
  } else {
    if (!merchant.publicKey) {
      throw refuse(
        'NO_PUBLIC_KEY',
        `No RSA public key is on file for ${merchant.login}; hand public_key.pem to support (merchants.json publicKeyPem).`,
      );
    }
    const ok = verify(
      'sha256',
      Buffer.from(base, 'utf8'),
      merchant.publicKey,
      Buffer.from(signature, 'base64'),
    );
    if (!ok) {
      throw refuse(
        'BAD_SIGNATURE',
        'The OAuth RSA-SHA256 signature does not verify with the public key on file: the request was changed after signing, or another key signed it.',
      );
    }
  }
  // Claimed only once the signature holds, so a forged request cannot burn a merchant's nonce.
  if (
    !store.claimNonce(
      consumerKey,
      params.oauth_nonce ?? '',
      nowSeconds * 1000,
      (nowSeconds - OAUTH_WINDOW_SECONDS) * 1000,
    )
  ) {
    throw refuse(
      'REPLAYED_NONCE',
      `oauth_nonce ${JSON.stringify(params.oauth_nonce)} was already used; every request needs a fresh nonce.`,
    );
  }
}
