// Reads the gateway's answers. The spec's JSON (`application/vnd.pay+json`) and the
// `type=...\n&name=value\n` layout of deployed gateways carry the same field names
// (gateway-notes.md); the content type decides which parser reads the body. A field named
// twice with different values makes the answer unreadable: reading either value would be a
// guess about which one the gateway meant (docs/protocol.md, "Answers").

import { AuthError, ServerError, UnreadableResponseError, ValidationError } from './errors';
import { conflictingName } from './json-members';
import type { ResponseType } from './operations';

export type OrderStatus = 'approved' | 'declined' | 'error' | 'filtered' | 'processing' | 'unknown';
export const FINAL_STATUSES: readonly OrderStatus[] = ['approved', 'declined', 'error', 'filtered'];
const KNOWN_STATUSES: readonly string[] = [...FINAL_STATUSES, 'processing', 'unknown'];

export function isFinalStatus(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

/** What every answer carries; `fields` keeps all of them, trimmed, for the journal and screens. */
export interface ResponseBase {
  serialNumber?: string;
  /** merchant-order-id: our client_orderid. */
  clientOrderId?: string;
  /** paynet-order-id: the gateway's orderid. */
  orderId?: string;
  endpointId?: string;
  fields: Readonly<Record<string, string>>;
}

export interface AsyncResponse extends ResponseBase {
  type: 'async-response';
}

export interface FormRedirectResponse extends ResponseBase {
  type: 'async-form-response';
  redirectUrl: string;
}

export interface CardDetails {
  bin?: string;
  lastFourDigits?: string;
  cardType?: string;
  cardholderName?: string;
  expMonth?: string;
  expYear?: string;
  cardRefId?: string;
}

export interface StatusResponse extends ResponseBase {
  type: 'status-response';
  status: OrderStatus;
  transactionType?: string;
  /** Major units as the gateway wrote them, never parsed into a float. */
  amount?: string;
  currency?: string;
  orderStage?: string;
  /** 3DS: an auto-submitting form for the customer's browser, while the order waits. */
  html?: string;
  /** 3DS: the address the customer's browser must open, while the order waits. */
  redirectTo?: string;
  approvalCode?: string;
  processorRrn?: string;
  descriptor?: string;
  /** The customer's e-mail given with the payment (see docs/protocol.md, "Order figures"). */
  email?: string;
  errorMessage?: string;
  errorCode?: string;
  card: CardDetails;
}

export interface CardRefResponse extends ResponseBase {
  type: 'create-card-ref-response';
  cardRefId?: string;
  status?: string;
}

export interface CardInfoResponse extends ResponseBase {
  type: 'get-card-info-response';
  cardPrintedName?: string;
  bin?: string;
  lastFourDigits?: string;
  expireMonth?: string;
  expireYear?: string;
}

export interface CreateRecurringPaymentResponse extends ResponseBase {
  type: 'create-recurring-payment-response';
  recurringPaymentId: string;
}

export type GatewayResponse =
  | AsyncResponse
  | FormRedirectResponse
  | StatusResponse
  | CardRefResponse
  | CardInfoResponse
  | CreateRecurringPaymentResponse;

export type ResponseOf<T extends ResponseType> = Extract<GatewayResponse, { type: T }>;

export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/** A body that names one field twice with different values: neither value can be trusted. */
export class AmbiguousField {
  constructor(readonly name: string) {}
}

/** Parses a body into trimmed string fields, by content type. Returns undefined when unreadable. */
export function parseBody(contentType: string, body: string): Record<string, string> | undefined {
  const fields = readFields(contentType, body);
  return fields instanceof AmbiguousField ? undefined : fields;
}

/** As parseBody, saying which field made an ambiguous body unreadable. */
function readFields(
  contentType: string,
  body: string,
): Record<string, string> | AmbiguousField | undefined {
  // The media type before any parameters, without splitting into an array for every answer.
  const semicolon = contentType.indexOf(';');
  const mime = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (
    mime === 'application/vnd.pay+json' ||
    mime === 'application/json' ||
    mime.endsWith('+json')
  ) {
    return parseJsonBody(body);
  }
  if (
    mime === 'text/html' ||
    mime === 'text/plain' ||
    mime === 'application/x-www-form-urlencoded'
  ) {
    return parseLineBody(body);
  }
  // No or an odd content type: accept whichever form the body clearly is.
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return parseJsonBody(trimmed);
  if (/^type=/.test(trimmed)) return parseLineBody(trimmed);
  return undefined;
}

/** A JSON number as the exact text the gateway wrote: 10.10 stays "10.10", never a float. */
class NumberText {
  constructor(readonly text: string) {}
}

/** The reviver's third argument (Node 21+): the source text of a primitive value. */
type ReviverContext = { source?: string } | undefined;
type SourceReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context: ReviverContext,
) => unknown;

function keepNumberText(_key: string, value: unknown, context: ReviverContext): unknown {
  if (typeof value !== 'number') return value;
  // Without the source text a number could only be read as a float: refuse rather than guess.
  if (typeof context?.source !== 'string') throw new Error('JSON.parse gave no source text');
  return new NumberText(context.source);
}

/** Keys that would reach an object's prototype if assigned; no gateway field has these names. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A field map with no prototype, so no answer's key can reach Object.prototype. */
function emptyFields(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/**
 * Reads a JSON answer with JSON.parse itself (no text scanning): every number keeps its source
 * text. Only the top-level fields are read, as the spec's answers are flat; a nested object or
 * array (and whatever amounts it holds) is ignored, and so are null values.
 */
function parseJsonBody(body: string): Record<string, string> | AmbiguousField | undefined {
  // The plain parse is exact for every string, boolean and null. A number it reads is a float:
  // an answer with a top-level number is read again keeping each number's source text (the
  // reviver costs more than the parse itself, for every answer).
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return undefined; // not JSON
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  const fields = root as Record<string, unknown>;
  if (typeof fields.type !== 'string') {
    // A number there is read again as its text, which is not a string type either.
    return undefined;
  }
  // The parsed object becomes the field map itself (copying twenty fields into a new map cost
  // more than the parse). JSON.parse made every key an own data property, "__proto__" too, and
  // the prototype goes before any value is assigned, so no key can reach Object.prototype; the
  // loop then sees own keys only (for-in, whose loads V8 serves from the enum cache, cheaper
  // than Object.keys and a keyed load each). The unsafe keys are dropped at the end.
  Object.setPrototypeOf(fields, null);
  // JSON.parse keeps a name's last value: fewer keys than the text names means one came twice.
  const ambiguous = conflictingName(body, Object.keys(fields).length);
  if (ambiguous !== undefined) return new AmbiguousField(ambiguous);
  let unsafe = false;
  for (const name in fields) {
    const value = fields[name];
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== value) fields[name] = trimmed;
    } else if (typeof value === 'number') {
      return parseJsonKeepingNumbers(body);
    } else if (typeof value === 'boolean') {
      fields[name] = String(value);
    } else {
      delete fields[name]; // null, or a nested object or array
    }
    if (UNSAFE_KEYS.has(name)) unsafe = true;
  }
  if (unsafe) for (const name of UNSAFE_KEYS) delete fields[name];
  return fields as Record<string, string>;
}

/** As parseJsonBody, every number kept as the exact text the gateway wrote. */
function parseJsonKeepingNumbers(body: string): Record<string, string> | undefined {
  let root: unknown;
  try {
    root = (JSON.parse as (text: string, reviver: SourceReviver) => unknown)(body, keepNumberText);
  } catch {
    return undefined; // nested too deep to read
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  if (root instanceof NumberText) return undefined;
  const fields = emptyFields();
  for (const [name, value] of Object.entries(root)) {
    if (UNSAFE_KEYS.has(name)) continue;
    if (typeof value === 'string') fields[name] = value.trim();
    else if (value instanceof NumberText) fields[name] = value.text;
    else if (typeof value === 'boolean') fields[name] = String(value);
  }
  if (typeof (root as { type?: unknown }).type !== 'string') return undefined;
  return fields;
}

function parseLineBody(body: string): Record<string, string> | AmbiguousField | undefined {
  if (!/^\s*type=/.test(body)) return undefined;
  // Each line is `&name=value` with the value URL-encoded (+ is a space); URLSearchParams reads
  // exactly that, and the newline that ends each value is trimmed away.
  const fields = emptyFields();
  for (const [name, value] of new URLSearchParams(body.trim())) {
    const key = name.trim();
    if (!key || UNSAFE_KEYS.has(key)) continue;
    const trimmed = value.trim();
    const earlier = fields[key];
    if (earlier !== undefined && earlier !== trimmed) return new AmbiguousField(key);
    fields[key] = trimmed;
  }
  return fields;
}

const errorMessageOf = (f: Record<string, string>) => f['error-message'] ?? '';
const errorCodeOf = (f: Record<string, string>) => f['error-code'] ?? '';

/**
 * Turns an HTTP answer into the typed response `expected`, or throws the typed error a clerk
 * can act on. Deployed gateways also answer 200 with a `validation-error` or `error` body.
 */
export function readResponse<T extends ResponseType>(raw: RawResponse, expected: T): ResponseOf<T> {
  const read = readFields(raw.contentType, raw.body);
  if (read instanceof AmbiguousField) {
    // Even an error's code or a 5xx cannot be told apart from its twin: the answer is unreadable.
    throw new UnreadableResponseError(
      raw.status,
      raw.contentType,
      `it names the field ${JSON.stringify(read.name)} twice with different values`,
    );
  }
  const fields = read;
  if (raw.status === 401 || raw.status === 403) {
    throw new AuthError(raw.status, fields ? errorMessageOf(fields) : '');
  }
  if (raw.status >= 500) {
    throw new ServerError(
      raw.status,
      fields ? errorCodeOf(fields) : '',
      fields ? errorMessageOf(fields) : '',
    );
  }
  if (!fields) {
    const detail =
      raw.status === 404
        ? "no gateway operation at this address; check the profile's base URL and endpoint id"
        : raw.body.trim()
          ? 'the body is neither the JSON of the spec nor the key=value layout'
          : 'the body is empty';
    throw new UnreadableResponseError(raw.status, raw.contentType, detail);
  }
  const type = fields.type ?? '';
  if (raw.status === 400 || type === 'validation-error') {
    throw new ValidationError(errorCodeOf(fields), errorMessageOf(fields), raw.status);
  }
  if (type === 'error') {
    throw new ServerError(raw.status, errorCodeOf(fields), errorMessageOf(fields));
  }
  if (raw.status !== 200) {
    throw new UnreadableResponseError(
      raw.status,
      raw.contentType,
      `unexpected HTTP status ${raw.status}`,
    );
  }
  if (type !== expected) {
    throw new UnreadableResponseError(
      raw.status,
      raw.contentType,
      `expected type ${expected}, got ${type ? type : 'no type'}`,
    );
  }
  return toTyped(expected, fields) as ResponseOf<T>;
}

function base(fields: Record<string, string>): ResponseBase {
  return {
    serialNumber: fields['serial-number'],
    clientOrderId: fields['merchant-order-id'],
    orderId: fields['paynet-order-id'],
    endpointId: fields['end-point-id'],
    // The answer's own field map (made for this answer, with no prototype), frozen as it is.
    fields: Object.freeze(fields),
  };
}

function need(fields: Record<string, string>, name: string, type: string): string {
  const value = fields[name];
  if (!value) throw new UnreadableResponseError(200, '', `the ${type} has no ${name}`);
  return value;
}

function toTyped(type: ResponseType, f: Record<string, string>): GatewayResponse {
  switch (type) {
    case 'async-response':
      return { type, ...base(f) };
    case 'async-form-response':
      return { type, ...base(f), redirectUrl: need(f, 'redirect-url', type) };
    case 'status-response': {
      const status = need(f, 'status', type);
      if (!KNOWN_STATUSES.includes(status)) {
        throw new UnreadableResponseError(
          200,
          '',
          `the status ${JSON.stringify(status)} is not one the gateway defines`,
        );
      }
      // Written out rather than spread from base(): this is the answer read most often.
      return {
        type,
        serialNumber: f['serial-number'],
        clientOrderId: f['merchant-order-id'],
        orderId: f['paynet-order-id'],
        endpointId: f['end-point-id'],
        fields: Object.freeze(f),
        status: status as OrderStatus,
        transactionType: f['transaction-type'],
        amount: f.amount,
        currency: f.currency,
        orderStage: f['order-stage'],
        html: f.html,
        redirectTo: f['redirect-to'],
        approvalCode: f['approval-code'],
        processorRrn: f['processor-rrn'],
        descriptor: f.descriptor,
        email: f.email,
        errorMessage: f['error-message'],
        errorCode: f['error-code'],
        card: {
          bin: f.bin,
          lastFourDigits: f['last-four-digits'],
          cardType: f['card-type'],
          cardholderName: f['cardholder-name'],
          expMonth: f['card-exp-month'],
          expYear: f['card-exp-year'],
          cardRefId: f['card-ref-id'],
        },
      };
    }
    case 'create-card-ref-response':
      return { type, ...base(f), cardRefId: f['card-ref-id'], status: f.status };
    case 'get-card-info-response':
      return {
        type,
        ...base(f),
        cardPrintedName: f['card-printed-name'],
        bin: f.bin,
        lastFourDigits: f['last-four-digits'],
        expireMonth: f['expire-month'],
        expireYear: f['expire-year'],
      };
    case 'create-recurring-payment-response':
      return { type, ...base(f), recurringPaymentId: need(f, 'recurring-payment-id', type) };
  }
}
