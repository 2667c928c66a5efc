// Sends a prepared request over HTTPS (or http to loopback), with a timeout, TLS verification
// forced on whatever the environment says, no redirects followed, and a cap on the answer's size.

import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';

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

/** Where a request goes, read once per URL: parsing a URL cost more than the rest of a send. */
interface Target {
  secure: boolean;
  /** host[:port] as the URL gives it, for messages. */
  host: string;
  /** Without IPv6 brackets, as node:http wants it. */
  hostname: string;
  port: string;
  path: string;
}

/**
 * Targets by request URL (a profile's few operation URLs). A URL that may not be sent to is
 * never kept. Bounded: cleared when it grows past a few profiles' worth.
 */
const targets = new Map<string, Target>();
const TARGETS_KEPT = 256;

/** The request's target, or the reason it must not be sent (plain http beyond this machine). */
function targetOf(requestUrl: string): Target | string {
  const known = targets.get(requestUrl);
  if (known) return known;
  const url = new URL(requestUrl);
  const secure = url.protocol === 'https:';
  if (!secure && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return `Refusing to send payment data to ${url.origin} without TLS; use https://.`;
  }
  const target: Target = {
    secure,
    host: url.host,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port,
    path: url.pathname + url.search,
  };
  if (targets.size >= TARGETS_KEPT) targets.clear();
  targets.set(requestUrl, target);
  return target;
}

export function sendPrepared(
  request: PreparedRequest,
  options: SendOptions = {},
): Promise<RawResponse> {
  const target = targetOf(request.url);
  if (typeof target === 'string') {
    return Promise.reject(new TransportError('TRANSPORT', target, { neverLeft: true }));
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
  return new Promise<RawResponse>((resolve, reject) =>
    new Exchange(request, target, options, resolve, reject).start(),
  );
}

/**
 * One request and its answer: the state that decides "sent or not" in one place, and handlers
 * that are methods, not functions made anew for every request. It is its own abort listener
 * (handleEvent), so the follow-up's AbortSignal needs no closure either.
 */
class Exchange {
  private settled = false;
  /**
   * Whether a byte of the request may have reached the gateway: false until a connection (the
   * TLS handshake, for https) is made. Node writes the request only on a connected socket, so
   * an error before that proves nothing left; after it, the request may have arrived.
   */
  private connected = false;
  private readonly timeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private req: http.ClientRequest | undefined;
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly request: PreparedRequest,
    private readonly target: Target,
    private readonly options: SendOptions,
    private readonly resolve: (raw: RawResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  start(): void {
    const { request, target, options } = this;
    // The body goes to node:http as text: a string given to end() is joined to the headers and
    // leaves in one write (a Buffer would be a second chunk, sent with writev), the same bytes.
    const body = request.body;
    const requestOptions: https.RequestOptions = {
      method: request.method,
      protocol: target.secure ? 'https:' : 'http:',
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(body, 'utf8')) },
      ...(options.agent ? { agent: options.agent } : {}),
      // Explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment cannot turn checks off.
      ...(target.secure
        ? { rejectUnauthorized: true, ...(options.ca ? { ca: options.ca } : {}) }
        : {}),
    };
    const req = (target.secure ? https : http).request(requestOptions, (res) =>
      this.onResponse(res),
    );
    this.req = req;
    req.on('socket', (socket: net.Socket) => this.onSocket(socket));
    req.on('error', (error: NodeJS.ErrnoException) => this.onRequestError(error));
    this.timer = setTimeout(() => this.onTimeout(), this.timeoutMs);
    options.signal?.addEventListener('abort', this, { once: true });
    req.end(body, 'utf8');
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this);
    return true;
  }

  private fail(error: TransportError): void {
    if (!this.finish()) return;
    this.req?.destroy();
    this.reject(error);
  }

  private onSocket(socket: net.Socket): void {
    // A kept-alive socket is already connected: the request may leave at once.
    if (this.req?.reusedSocket || !socket.connecting) this.connected = true;
    else
      socket.once(this.target.secure ? 'secureConnect' : 'connect', () => {
        this.connected = true;
      });
  }

  private onRequestError(error: NodeJS.ErrnoException): void {
    this.fail(
      new TransportError(
        'TRANSPORT',
        describeNetworkError(error, this.target.host, this.connected),
        {
          cause: error,
          neverLeft: !this.connected,
        },
      ),
    );
  }

  /** The AbortSignal's 'abort' event (this object is the listener). */
  handleEvent(): void {
    this.fail(
      new TransportError(
        'ABORTED',
        `The request was cancelled. ${this.connected ? MAY_HAVE_BEEN_RECORDED : NOTHING_SENT}`,
        { neverLeft: !this.connected },
      ),
    );
  }

  private onTimeout(): void {
    const seconds = Math.round(this.timeoutMs / 1000);
    const host = this.target.host;
    this.fail(
      new TransportError(
        'TIMEOUT',
        this.connected
          ? `No answer from the gateway at ${host} within ${seconds} s. ${MAY_HAVE_BEEN_RECORDED}`
          : `No connection to the gateway at ${host} within ${seconds} s. ${NOTHING_SENT}`,
        { neverLeft: !this.connected },
      ),
    );
  }

  private onResponse(res: http.IncomingMessage): void {
    res.on('data', (chunk: Buffer) => this.onData(chunk));
    res.on('end', () => this.onEnd(res));
    res.on('error', (error: NodeJS.ErrnoException) => this.onResponseError(error));
  }

  private onData(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_BODY_BYTES) {
      this.fail(
        new TransportError(
          'TRANSPORT',
          `The gateway's answer exceeded ${MAX_BODY_BYTES} bytes and was not read. ${MAY_HAVE_BEEN_RECORDED}`,
        ),
      );
      return;
    }
    this.chunks.push(chunk);
  }

  private onEnd(res: http.IncomingMessage): void {
    if (!this.finish()) return;
    const status = res.statusCode ?? 0;
    const contentType = String(res.headers['content-type'] ?? '');
    const chunks = this.chunks;
    const body = decodeUtf8(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    if (body === undefined) {
      this.reject(
        new UnreadableResponseError(status, contentType, 'the body is not valid UTF-8 text'),
      );
    } else {
      this.resolve({ status, contentType, body });
    }
  }

  private onResponseError(error: NodeJS.ErrnoException): void {
    this.fail(
      new TransportError('TRANSPORT', describeNetworkError(error, this.target.host, true), {
        cause: error,
      }),
    );
  }
}
