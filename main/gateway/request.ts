// Builds the exact request an operation sends: URL, headers and body, signed. Sending uses
// the very object this returns, so a preview and the real request can never differ.

import type { KeyObject } from 'node:crypto';

import { controlChecksum } from './checksum';
import { InputError } from './errors';
import { validateFields } from './fields';
import {
  authorizationHeader,
  hmacSha1Signature,
  loadRsaPrivateKey,
  percentEncode,
  protocolParams,
  rsaSha256Signature,
  signatureBaseString,
  type OAuthSignatureMethod,
  type Pair,
} from './oauth';
import { getOperation, type RequestOperation } from './operations';

export const VND_PAY_JSON = 'application/vnd.pay+json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface Credentials {
  /** Full base URL, path prefix included: `https://gate.example.com/paynet`. */
  baseUrl: string;
  /** Endpoint id or endpoint group id (an integer). */
  endpointId: string;
  login: string;
  controlKey: string;
  /** PEM, PKCS#1 or PKCS#8, unencrypted; needed only by RSA-SHA256 operations. */
  privateKeyPem?: string;
}

export interface PreparedRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface BuildOptions {
  /** Fixed OAuth nonce and timestamp, for previews and tests; fresh ones otherwise. */
  nonce?: string;
  timestamp?: number;
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** True for hosts that never leave this machine: the only place plain http is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname);
}

/** Checks a profile's base URL: https, or http to this machine only; no query or fragment. */
export function validateBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new InputError(
      `The base URL ${JSON.stringify(baseUrl)} is not a web address; write it in full, for example https://gate.example.com/paynet.`,
      'baseUrl',
    );
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw new InputError(
        'The base URL uses plain http://, which would send payment data unencrypted; use https:// (http is allowed only for a sandbox on this computer).',
        'baseUrl',
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new InputError(
      `The base URL must start with https://, not ${url.protocol}//.`,
      'baseUrl',
    );
  }
  if (url.search || url.hash) {
    throw new InputError(
      'The base URL must not carry a query (?) or fragment (#); give just the address and path prefix.',
      'baseUrl',
    );
  }
  if (url.username || url.password) {
    throw new InputError('The base URL must not contain a user name or password.', 'baseUrl');
  }
  return url;
}

/**
 * Base URLs already found valid, with each operation's URL under them: every request checks
 * its profile's base URL and builds its URL, and a profile's base URL rarely changes.
 * Bounded: cleared when it grows past a few profiles' worth.
 */
const checkedBaseUrls = new Map<string, Map<string, Map<string, string>>>();
const CHECKED_BASE_URLS_KEPT = 64;

/** A valid base URL's operation URLs, by endpoint id and then path. */
function checkedBaseUrl(baseUrl: string): Map<string, Map<string, string>> {
  let urls = checkedBaseUrls.get(baseUrl);
  if (!urls) {
    validateBaseUrl(baseUrl); // throws for a bad one, which is never kept
    if (checkedBaseUrls.size >= CHECKED_BASE_URLS_KEPT) checkedBaseUrls.clear();
    urls = new Map();
    checkedBaseUrls.set(baseUrl, urls);
  }
  return urls;
}

function validateCredentials(credentials: Credentials): void {
  checkedBaseUrl(credentials.baseUrl);
  if (!/^[1-9]\d{0,18}$/.test(credentials.endpointId.trim())) {
    throw new InputError(
      `The endpoint id ${JSON.stringify(credentials.endpointId)} must be the whole number the gateway gave you, for example 1111.`,
      'endpointId',
    );
  }
  if (!credentials.login.trim()) {
    throw new InputError(
      'This profile has no merchant login; enter the login the gateway gave you.',
      'login',
    );
  }
}

/** `{baseUrl}{path}/{endpointId}`, keeping the base URL's path prefix. */
export function operationUrl(baseUrl: string, path: string, endpointId: string): string {
  // Two lookups by strings whose hashes V8 keeps, not one by a key joined (and hashed) anew.
  const byEndpoint = checkedBaseUrl(baseUrl);
  let urls = byEndpoint.get(endpointId);
  if (!urls) {
    urls = new Map();
    byEndpoint.set(endpointId, urls);
  }
  let url = urls.get(path);
  if (url === undefined) {
    const base = validateBaseUrl(baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    url = `${base.origin}${prefix}${path}/${encodeURIComponent(endpointId.trim())}`;
    urls.set(path, url);
  }
  return url;
}

/** application/x-www-form-urlencoded with RFC 3986 encoding (a space is %20, never +). */
export function encodeForm(pairs: readonly Pair[]): string {
  // A loop, not map and join: every request encodes its body once.
  let form = '';
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i] as Pair;
    form += `${i === 0 ? '' : '&'}${percentEncode(name)}=${percentEncode(value)}`;
  }
  return form;
}

/** The ids a request asks about, as its body says them: the identity check's side. */
export interface AskedIds {
  /** The exact body these ids are those of. */
  body: string;
  clientOrderId: string | undefined;
  orderid: string | undefined;
}

/**
 * A request as buildRequest made it: a PreparedRequest (the same own fields, in the same order,
 * so copies and serialisation see nothing else) that also holds, privately, the ids its body
 * asks about. Reading them back from the body took a URLSearchParams parse for every answer.
 */
class BuiltRequest implements PreparedRequest {
  method = 'POST' as const;
  url: string;
  headers: Record<string, string>;
  body: string;
  readonly #asked: AskedIds;

  constructor(url: string, headers: Record<string, string>, body: string, asked: AskedIds) {
    this.url = url;
    this.headers = headers;
    this.body = body;
    this.#asked = asked;
  }

  static askedIds(request: PreparedRequest): AskedIds | undefined {
    return #asked in request ? request.#asked : undefined;
  }
}

/**
 * The ids noted when `request` was built, while its body is still the text they were noted
 * for; undefined for a request built elsewhere (a copy, a journal's) or whose body was replaced.
 */
export function notedAskedIds(request: PreparedRequest): AskedIds | undefined {
  const asked = BuiltRequest.askedIds(request);
  return asked && asked.body === request.body ? asked : undefined;
}

/**
 * The request as it will be sent. Its ids are noted from the very fields its body encodes:
 * percent-encoding of well-formed text (validateFields refuses any other), which
 * URLSearchParams decodes back to the same strings, so they are the ids the body says.
 */
function prepared(url: string, headers: Record<string, string>, fields: Record<string, string>) {
  const body = encodeForm(Object.entries(fields));
  return new BuiltRequest(url, headers, body, {
    body,
    clientOrderId: fields.client_orderid ?? fields['client-order-id'],
    orderid: fields.orderid,
  });
}

/**
 * The exact request for `operation`: fields validated, `login` and `control` added for Scheme
 * A, the `Authorization: OAuth` header for Scheme B. Throws InputError before anything is
 * signed when the operation, a field or a credential is wrong.
 */
export function buildRequest(
  operation: RequestOperation,
  fields: Record<string, string>,
  credentials: Credentials,
  options: BuildOptions = {},
): PreparedRequest {
  const def = getOperation(operation);
  validateCredentials(credentials);
  const endpointId = credentials.endpointId.trim();
  const login = credentials.login.trim();
  const body = validateFields(def, fields);
  const url = operationUrl(credentials.baseUrl, def.path, endpointId);
  const headers: Record<string, string> = {
    Accept: VND_PAY_JSON,
    'Content-Type': FORM_CONTENT_TYPE,
  };

  if (def.auth.kind === 'control') {
    // Deployed gateways read `login` from the body of every operation whose formula names it.
    if (def.auth.formula.includes('login')) body.login = login;
    body.control = controlChecksum(def.auth.formula, {
      endpointId,
      login,
      controlKey: credentials.controlKey,
      fields: body,
    });
    return prepared(url, headers, body);
  }

  const method: OAuthSignatureMethod = def.auth.kind === 'oauth-hmac' ? 'HMAC-SHA1' : 'RSA-SHA256';
  // Load the key first: a missing or weak key is an input error, found before any signing.
  const privateKey =
    method === 'RSA-SHA256' ? parsedPrivateKey(requirePem(credentials.privateKeyPem)) : undefined;
  if (method === 'HMAC-SHA1' && !credentials.controlKey) {
    throw new InputError('This profile has no control key; enter it in the profile.', 'controlKey');
  }
  const oauth = protocolParams(login, method, options);
  const base = signatureBaseString('POST', url, [
    ...Object.entries(body),
    ...Object.entries(oauth),
  ]);
  const signature = privateKey
    ? rsaSha256Signature(base, privateKey)
    : hmacSha1Signature(base, credentials.controlKey);
  headers.Authorization = authorizationHeader({ ...oauth, oauth_signature: signature });
  return prepared(url, headers, body);
}

/**
 * Parsed private keys by their PEM text. Parsing a PEM costs more than signing with the key
 * (`npm run bench`, signing), and a profile's key changes only by rotation or
 * import, which gives a new PEM and so a new entry; forgetPrivateKey drops the old one at once.
 * Bounded: the first parsed go first once more keys than this were parsed.
 */
const parsedKeys = new Map<string, KeyObject>();
const PARSED_KEYS_KEPT = 16;

function parsedPrivateKey(pem: string): KeyObject {
  const known = parsedKeys.get(pem);
  if (known) return known;
  // A key that cannot be used throws here and is never kept.
  const key = loadRsaPrivateKey(pem);
  parsedKeys.set(pem, key);
  for (const oldest of parsedKeys.keys()) {
    if (parsedKeys.size <= PARSED_KEYS_KEPT) break;
    parsedKeys.delete(oldest);
  }
  return key;
}

/** Drops the parsed form of a key that was replaced (rotation, import) or whose profile went. */
export function forgetPrivateKey(pem: string): void {
  parsedKeys.delete(pem);
}

function requirePem(pem: string | undefined): string {
  if (!pem?.trim()) {
    throw new InputError(
      "This operation is signed with the profile's RSA private key, and the profile has none; generate or import one in Keys.",
      'privateKeyPem',
    );
  }
  return pem;
}
