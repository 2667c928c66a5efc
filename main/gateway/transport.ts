// Sends a prepared request over HTTPS (or http to loopback), with a timeout, TLS verification
// forced on whatever the environment says, no redirects followed, and a cap on the answer's size.

import http from 'node:http';
import https from 'node:https';

import { TransportError, UnreadableResponseError } from './errors';
import type { RawResponse } from './response';
import { isLoopbackHost, type PreparedRequest } from './request';

export interface SendOptions {
  /** Milliseconds to wait for the whole answer; 30 s by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra CA certificates (PEM) to trust, e.g. a gateway's private test CA. Verification stays on. */
  ca?: string | string[];
  /**
   * Keeps connections open between requests (the client's own, one per profile); Node's global
   * agent otherwise. It must be an https.Agent for https:// and an http.Agent for http://.
   */
  agent?: http.Agent;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

const MAY_HAVE_BEEN_RECORDED =
  'The gateway may already have recorded the operation: look the order up before sending anything again.';
const NOTHING_SENT = 'No connection was made, so nothing was sent.';

/** Turns a socket or TLS failure into a sentence a clerk can act on. */
function describeNetworkError(
  error: NodeJS.ErrnoException,
  host: string,
  connected: boolean,
): string {
  if (!connected && (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !error.code))
    return `The connection to ${host} failed before it was made (${error.code ?? error.message}). ${NOTHING_SENT}`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `The gateway at ${host} refused the connection: it is not running or the base URL's port is wrong. ${NOTHING_SENT}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The gateway host ${host} could not be found: check the base URL and this computer's network connection. ${NOTHING_SENT}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `The connection to ${host} was cut before the answer arrived. ${MAY_HAVE_BEEN_RECORDED}`;
    case 'CERT_HAS_EXPIRED':
      return `The gateway's TLS certificate has expired, so ${host} cannot be trusted; nothing was sent. Tell the gateway operator.`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `The gateway's TLS certificate for ${host} is not signed by a trusted authority; nothing was sent. Check the base URL, or ask the operator for its CA certificate.`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `The TLS certificate presented by ${host} is for another name; nothing was sent. Check the base URL.`;
    default:
      return connected
        ? `The request to ${host} failed (${error.code ?? error.message}). ${MAY_HAVE_BEEN_RECORDED}`
        : `The connection to ${host} failed (${error.code ?? error.message}). ${NOTHING_SENT}`;
  }
}

/**
 * The answer's bytes as text, or undefined when they are not valid UTF-8: a lenient decoder
 * would swap bad bytes for U+FFFD and we would read (and store) something the gateway never said.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    // One decoder for every answer: without `stream`, each decode() starts afresh.
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function sendPrepared(
  request: PreparedRequest,
  options: SendOptions = {},
): Promise<RawResponse> {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  if (!secure && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return Promise.reject(
      new TransportError(
        'TRANSPORT',
        `Refusing to send payment data to ${url.origin} without TLS; use https://.`,
        { neverLeft: true },
      ),
    );
  }
  if (options.signal?.aborted) {
    return Promise.reject(
      new TransportError(
        'ABORTED',
        'The request was cancelled before it was sent; nothing reached the gateway.',
        { neverLeft: true },
      ),
    );
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const body = Buffer.from(request.body, 'utf8');

  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    // Whether a byte of the request may have reached the gateway: false until a connection (the
    // TLS handshake, for https) is made. Node writes the request only on a connected socket, so
    // an error before that proves nothing left; after it, the request may have arrived.
    let connected = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const fail = (error: TransportError) =>
      finish(() => {
        req.destroy();
        reject(error);
      });
    const onAbort = () =>
      fail(
        new TransportError(
          'ABORTED',
          `The request was cancelled. ${connected ? MAY_HAVE_BEEN_RECORDED : NOTHING_SENT}`,
          { neverLeft: !connected },
        ),
      );

    const requestOptions: https.RequestOptions = {
      method: request.method,
      headers: { ...request.headers, 'Content-Length': String(body.length) },
      ...(options.agent ? { agent: options.agent } : {}),
      // Explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment cannot turn checks off.
      ...(secure ? { rejectUnauthorized: true, ...(options.ca ? { ca: options.ca } : {}) } : {}),
    };
    const req = (secure ? https : http).request(url, requestOptions, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          fail(
            new TransportError(
              'TRANSPORT',
              `The gateway's answer exceeded ${MAX_BODY_BYTES} bytes and was not read. ${MAY_HAVE_BEEN_RECORDED}`,
            ),
          );
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () =>
        finish(() => {
          const status = res.statusCode ?? 0;
          const contentType = String(res.headers['content-type'] ?? '');
          const body = decodeUtf8(
            chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
          );
          if (body === undefined) {
            reject(
              new UnreadableResponseError(status, contentType, 'the body is not valid UTF-8 text'),
            );
          } else {
            resolve({ status, contentType, body });
          }
        }),
      );
      res.on('error', (error: NodeJS.ErrnoException) =>
        fail(
          new TransportError('TRANSPORT', describeNetworkError(error, url.host, true), {
            cause: error,
          }),
        ),
      );
    });
    req.on('socket', (socket) => {
      // A kept-alive socket is already connected: the request may leave at once.
      if (req.reusedSocket || !socket.connecting) connected = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        new TransportError('TRANSPORT', describeNetworkError(error, url.host, connected), {
          cause: error,
          neverLeft: !connected,
        }),
      ),
    );
    const timer = setTimeout(
      () =>
        fail(
          new TransportError(
            'TIMEOUT',
            connected
              ? `No answer from the gateway at ${url.host} within ${Math.round(timeoutMs / 1000)} s. ${MAY_HAVE_BEEN_RECORDED}`
              : `No connection to the gateway at ${url.host} within ${Math.round(timeoutMs / 1000)} s. ${NOTHING_SENT}`,
            { neverLeft: !connected },
          ),
        ),
      timeoutMs,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  });
}
