// Reads the gateway's answers. The spec's JSON (`application/vnd.pay+json`) and the
// `type=...\n&name=value\n` layout of deployed gateways carry the same field names
// (gateway-notes.md); the content type decides which parser reads the body (answer-body.ts).
// A field named twice with different values makes the answer unreadable: reading either value
// would be a guess about which one the gateway meant (docs/protocol.md, "Answers"). Here the
// fields become a typed answer, or the typed error a clerk can act on.

import { AuthError, ServerError, UnreadableResponseError, ValidationError } from './errors';
import { AmbiguousField, readFields } from './answer-body';
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
