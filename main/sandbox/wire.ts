// The bytes on the wire: reading a form body strictly, and writing an answer either as the
// spec's JSON (`application/vnd.pay+json`) or as the deployed gateways' `key=value` lines
// (`type=...\n&name=value\n`, values URL-encoded with + for a space; gateway-notes.md).

import type { IncomingMessage, ServerResponse } from 'node:http';

import { refuse } from './codes';
import type { ResponseFormat } from './merchants';

export const VND_PAY_JSON = 'application/vnd.pay+json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MAX_BODY_BYTES = 64 * 1024;

export type Pairs = [name: string, value: string][];

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    onBody(req, limit, (error, body) => (error === undefined ? resolve(body) : reject(error))),
  );
}

/**
 * The whole body, handed to `done` from the request's own 'end' event (no promise, so the
 * answer can be written in the same run), or the refusal or stream error. A small body comes
 * in one chunk: handed on as it is, not copied by Buffer.concat.
 */
export function onBody(
  req: IncomingMessage,
  limit: number,
  done: (error: Error | undefined, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  let finished = false;
  const finish = (error: Error | undefined, body: Buffer) => {
    if (finished) return; // an error after the end, or a second error: answered once
    finished = true;
    done(error, body);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge)
      finish(refuse('BAD_BODY', `The request body is larger than ${limit} bytes.`), EMPTY);
    else finish(undefined, chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
  });
  req.on('error', (error) => finish(error, EMPTY));
}

const EMPTY = Buffer.alloc(0);

/** True when the media type (parameters ignored) is exactly `expected`. */
function mediaTypeIs(header: string | undefined, expected: string): boolean {
  if (header === expected) return true; // what clients send: nothing to split or fold
  return (header ?? '').split(';')[0]?.trim().toLowerCase() === expected;
}

/** The spec: `Accept` must be exactly application/vnd.pay+json; a list or a wildcard is refused. */
export function checkAccept(header: string | undefined): void {
  if (header !== VND_PAY_JSON && (header ?? '').trim().toLowerCase() !== VND_PAY_JSON) {
    throw refuse(
      'NOT_ACCEPTABLE',
      `The Accept header must be exactly ${VND_PAY_JSON}; got ${header === undefined ? 'none' : JSON.stringify(header)}.`,
    );
  }
}

/** The body read as a form, once per request: the request log and the checks share it. */
export function formParams(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}

/**
 * A form body (formParams) as ordered pairs, once its Content-Type says it is one. A field
 * given twice is refused: which of the two values was signed would be ambiguous.
 */
export function parseFormBody(contentType: string | undefined, params: URLSearchParams): Pairs {
  if (!mediaTypeIs(contentType, FORM_TYPE)) {
    throw refuse(
      'BAD_BODY',
      `The body must be sent as ${FORM_TYPE}; got ${contentType === undefined ? 'no Content-Type' : JSON.stringify(contentType)}.`,
    );
  }
  const pairs: Pairs = [];
  const seen = new Set<string>();
  // forEach rather than the iterator: no iterator and no [name, value] array per field.
  params.forEach((value, name) => {
    if (seen.has(name))
      throw refuse('BAD_BODY', `The field ${name} appears more than once in the body.`);
    seen.add(name);
    pairs.push([name, value]);
  });
  return pairs;
}

/** Deployed layout: one field a line, `type=...` first, then `&name=value`, each line ending in \n. */
export function encodeLines(fields: Readonly<Record<string, string>>): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  const { type, ...rest } = fields;
  const lines = [`type=${enc(type ?? '')}\n`];
  for (const [name, value] of Object.entries(rest)) lines.push(`&${name}=${enc(value)}\n`);
  return lines.join('');
}

export function sendFields(
  res: ServerResponse,
  http: number,
  fields: Readonly<Record<string, string>>,
  format: ResponseFormat,
): void {
  const body = format === 'lines' ? encodeLines(fields) : JSON.stringify(fields);
  // A flat [name, value, ...] list: node writes it as it is, with no object's keys to walk.
  res.writeHead(http, [
    'Content-Type',
    format === 'lines' ? 'text/html; charset=utf-8' : VND_PAY_JSON,
    'Content-Length',
    String(Buffer.byteLength(body)),
    'Cache-Control',
    'no-store',
  ]);
  res.end(body);
}

export function sendText(
  res: ServerResponse,
  http: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(http, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
