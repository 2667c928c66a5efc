// Scheme B: OAuth 1.0a (RFC 5849) as spec/gateway-api.md's "Signature base string" section
// says. HMAC-SHA1 keyed with `control_key&`, RSA-SHA256 (PKCS#1 v1.5) with the profile's
// private key. Signing uses node:crypto; node-forge is for key material only (main/keys/).

import { createHmac, createPrivateKey, randomFillSync, sign, type KeyObject } from 'node:crypto';

import { InputError } from './errors';

export type OAuthSignatureMethod = 'HMAC-SHA1' | 'RSA-SHA256';
export type Pair = readonly [name: string, value: string];

/** The unreserved characters of RFC 3986 section 2.3, by char code: ALPHA, DIGIT, - . _ ~. */
const UNRESERVED = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') {
  UNRESERVED[c.charCodeAt(0)] = 1;
}

/** RFC 3986 section 2.3: everything but ALPHA, DIGIT, '-', '.', '_', '~' is %XX over UTF-8. */
export function percentEncode(value: string): string {
  // Most names and values (ids, logins, checksums) need no encoding: returned as they are
  // without a regex pass, as every request encodes each of its fields.
  let i = 0;
  while (i < value.length && UNRESERVED[value.charCodeAt(i)] === 1) i++;
  if (i === value.length) return value;
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

/**
 * RFC 5849 section 3.4.1.2: scheme and host in lower case, the port only when it is not the
 * scheme's default, the path as it is, no query and no fragment.
 */
export function normalizeUrl(url: string): string {
  const u = new URL(url);
  // URL already lowercases scheme and host and drops default ports (80 for http, 443 for https).
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** The query parameters of a URL, decoded as application/x-www-form-urlencoded (section 3.4.1.3.1). */
export function queryPairs(url: string): Pair[] {
  return [...new URL(url).searchParams.entries()];
}

/** Section 3.4.1.3.2: encode every name and value, sort by name then value, join with & and =. */
export function normalizeParameters(pairs: readonly Pair[]): string {
  return pairs
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** A request URL's part of every base string made for it: what two URL parses found. */
interface UrlParts {
  /** The base string URI (normalizeUrl), percent-encoded as the base string holds it. */
  encodedUrl: string;
  /** Its query parameters (queryPairs). */
  query: readonly Pair[];
}

/**
 * UrlParts by request URL: every request signs for one of its profile's few operation URLs, and
 * parsing a URL twice per request cost more than the rest of the base string. Bounded: cleared
 * when it grows past a few profiles' worth (the sandbox reads any URL it is sent).
 */
const urlParts = new Map<string, UrlParts>();
const URL_PARTS_KEPT = 256;

function partsOf(url: string): UrlParts {
  let parts = urlParts.get(url);
  if (!parts) {
    parts = { encodedUrl: percentEncode(normalizeUrl(url)), query: queryPairs(url) };
    if (urlParts.size >= URL_PARTS_KEPT) urlParts.clear();
    urlParts.set(url, parts);
  }
  return parts;
}

/** Sorts encoded pairs by name, then value (section 3.4.1.3.2). */
function byNameThenValue(a: Pair, b: Pair): number {
  const [an, av] = a;
  const [bn, bv] = b;
  return an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0;
}

/**
 * Encoded text encoded again. percentEncode's output is unreserved characters and %XX: without
 * a `%` it is all unreserved, and encoding leaves it as it is.
 */
function encodeAgain(encoded: string): string {
  return encoded.includes('%') ? percentEncode(encoded) : encoded;
}

/**
 * percentEncode(normalizeParameters(pairs)), made in one pass: percent-encoding works character
 * by character, so encoding the joined text is encoding each encoded name and value again and
 * the `=` and `&` between them (%3D, %26). Names and values with nothing to encode (ids,
 * logins, timestamps, hex nonces) are taken as they are, where the joined text, which always
 * holds `=` and `&`, went whole through encodeURIComponent.
 */
function encodedParameters(pairs: readonly Pair[]): string {
  const encoded: Pair[] = [];
  for (const [name, value] of pairs) encoded.push([percentEncode(name), percentEncode(value)]);
  encoded.sort(byNameThenValue);
  let text = '';
  for (let i = 0; i < encoded.length; i++) {
    const [name, value] = encoded[i] as Pair;
    text += `${i === 0 ? '' : '%26'}${encodeAgain(name)}%3D${encodeAgain(value)}`;
  }
  return text;
}

/**
 * Section 3.4.1: METHOD&URL&PARAMETERS, each element percent-encoded once. `pairs` are the
 * body parameters and the oauth_* protocol parameters (without oauth_signature); the query
 * parameters of `url` are added here.
 */
export function signatureBaseString(method: string, url: string, pairs: readonly Pair[]): string {
  const { encodedUrl, query } = partsOf(url);
  const all: Pair[] = [...query];
  for (const pair of pairs) {
    if (pair[0] !== 'oauth_signature' && pair[0] !== 'realm') all.push(pair);
  }
  return `${percentEncode(method.toUpperCase())}&${encodedUrl}&${encodedParameters(all)}`;
}

/** Section 3.4.2: HMAC-SHA1 keyed with encoded consumer secret & encoded token secret, Base64. */
export function hmacSha1Signature(
  baseString: string,
  consumerSecret: string,
  tokenSecret = '',
): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(baseString, 'utf8').digest('base64');
}

/** RSA-SHA256: PKCS#1 v1.5 signature over SHA-256 of the UTF-8 base string, Base64. */
export function rsaSha256Signature(baseString: string, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(baseString, 'utf8'), privateKey).toString('base64');
}

export const MIN_RSA_BITS = 2048;

/**
 * Reads an RSA private key from PEM (PKCS#1 `BEGIN RSA PRIVATE KEY` or PKCS#8 `BEGIN PRIVATE
 * KEY`). Encrypted keys are decrypted when they are imported (main/keys/), so a key that still
 * needs a passphrase here is refused, as is any key that is not RSA or is under 2048 bits.
 */
export function loadRsaPrivateKey(pem: string): KeyObject {
  if (!/-----BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----/.test(pem)) {
    throw new InputError(
      'The private key is not a PEM private key: it must start with "-----BEGIN PRIVATE KEY-----" (PKCS#8) or "-----BEGIN RSA PRIVATE KEY-----" (PKCS#1). Import the key again in Keys.',
      'privateKeyPem',
    );
  }
  // PKCS#8 encrypted keys say so in their label, PKCS#1 ones in a Proc-Type header.
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(pem)) {
    throw new InputError(
      'The private key is encrypted; import it in Keys with its passphrase so Paydesk can use it.',
      'privateKeyPem',
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new InputError(
      'The private key PEM could not be read; it is damaged or incomplete. Import the key again in Keys.',
      'privateKeyPem',
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new InputError(
      `The private key is a ${key.asymmetricKeyType ?? 'non-RSA'} key; the gateway verifies RSA-SHA256 signatures, so use an RSA key.`,
      'privateKeyPem',
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) {
    throw new InputError(
      `The RSA key has ${bits} bits; the gateway requires at least ${MIN_RSA_BITS}. Generate a new 4096-bit key in Keys.`,
      'privateKeyPem',
    );
  }
  return key;
}

const NONCE_BYTES = 16;
/**
 * Random bytes for nonces, from node's CSPRNG a block at a time: asking it for 16 bytes cost
 * more than the rest of a request's OAuth parameters. Each byte is used once; a nonce is sent
 * in the clear, so holding the next ones in memory tells nothing that is not soon public.
 */
const nonceBytes = Buffer.alloc(NONCE_BYTES * 256);
let nonceAt = nonceBytes.length;

/** A nonce of 128 random bits in hex: unique per request, and safe in any encoding. */
export function freshNonce(): string {
  if (nonceAt === nonceBytes.length) {
    randomFillSync(nonceBytes);
    nonceAt = 0;
  }
  const nonce = nonceBytes.toString('hex', nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

export function currentTimestamp(): number {
  return Math.floor(Date.now() / 1000);
}

export interface OAuthProtocolParams {
  oauth_consumer_key: string;
  oauth_nonce: string;
  oauth_signature_method: OAuthSignatureMethod;
  oauth_timestamp: string;
  oauth_version: '1.0';
}

export function protocolParams(
  consumerKey: string,
  method: OAuthSignatureMethod,
  options: { nonce?: string; timestamp?: number } = {},
): OAuthProtocolParams {
  return {
    oauth_consumer_key: consumerKey,
    oauth_nonce: options.nonce ?? freshNonce(),
    oauth_signature_method: method,
    oauth_timestamp: String(options.timestamp ?? currentTimestamp()),
    oauth_version: '1.0',
  };
}

/**
 * Section 3.5.1: `OAuth name="value", ...` with every value percent-encoded separately and
 * quoted. `realm` is optional and, per the RFC, not encoded.
 */
export function authorizationHeader(
  params: Readonly<Record<string, string>>,
  realm?: string,
): string {
  // One string built in a loop (every request makes one), in the parameters' own order.
  let header = realm === undefined ? 'OAuth ' : `OAuth realm="${realm}"`;
  let first = realm === undefined;
  for (const name of Object.keys(params)) {
    header += `${first ? '' : ', '}${percentEncode(name)}="${percentEncode(params[name] as string)}"`;
    first = false;
  }
  return header;
}

/**
 * Parses an `Authorization: OAuth ...` header back into its decoded parameters. The sandbox
 * reads requests with it; tests use it to check what the client sent.
 */
export function parseAuthorizationHeader(header: string): Record<string, string> {
  const match = /^\s*OAuth\s+(.*)$/is.exec(header);
  if (!match)
    throw new InputError(
      'The Authorization header does not use the OAuth scheme.',
      'Authorization',
    );
  const params: Record<string, string> = {};
  const re = /\s*([^=,\s]+)\s*=\s*"([^"]*)"\s*(?:,|$)/gy;
  const rest = match[1] ?? '';
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(rest)) !== null) {
    const name = decodeURIComponent(m[1] ?? '');
    // A name given twice leaves open which value was signed: refused, never last-one-wins.
    if (Object.hasOwn(params, name)) {
      throw new InputError(
        `The Authorization header gives ${name} twice; every OAuth parameter must appear once.`,
        'Authorization',
      );
    }
    params[name] = decodeURIComponent(m[2] ?? '');
    consumed = re.lastIndex;
    if (consumed >= rest.length) break;
  }
  if (rest.slice(consumed).trim() !== '') {
    throw new InputError(
      'The Authorization header is malformed: every value must be quoted and separated by commas.',
      'Authorization',
    );
  }
  return params;
}
