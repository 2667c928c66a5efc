// Every refusal the sandbox can answer, with its HTTP status and `error-code`. The table is
// the one documented in docs/sandbox.md; tests and the client's journal can rely on the codes.
// Deployed gateways give a missing field error-code 1 (gateway-notes.md); the rest are ours.

export const ERROR_CODES = {
  /** A required field is missing or empty. */
  MISSING_FIELD: { code: '1', http: 400 },
  /** A field is present but malformed (amount, currency, card number, e-mail, URL, ...). */
  INVALID_FIELD: { code: '2', http: 400 },
  /** The Accept header is not exactly application/vnd.pay+json. */
  NOT_ACCEPTABLE: { code: '3', http: 400 },
  /** The body is not application/x-www-form-urlencoded, repeats a field, or is too large. */
  BAD_BODY: { code: '4', http: 400 },
  /** client_orderid reused with different fields, or naming another order. */
  DUPLICATE_ORDER: { code: '5', http: 400 },
  /** The referenced order, card reference or subscription does not exist for this merchant. */
  NOT_FOUND: { code: '6', http: 400 },
  /** The referenced order is not in a state that allows the operation. */
  WRONG_STATE: { code: '7', http: 400 },
  /** The amount or currency is not allowed for this order (above what is left, wrong currency). */
  AMOUNT_REFUSED: { code: '8', http: 400 },
  /** The endpoint id is not a known merchant endpoint, or the login does not belong to it. */
  UNKNOWN_MERCHANT: { code: '10', http: 403 },
  /** The control checksum does not match. */
  BAD_CONTROL: { code: '11', http: 403 },
  /** The OAuth signature does not verify, or the OAuth parameters are missing or malformed. */
  BAD_SIGNATURE: { code: '12', http: 403 },
  /** oauth_timestamp is more than 5 minutes away from the sandbox's time. */
  STALE_TIMESTAMP: { code: '13', http: 403 },
  /** oauth_nonce was already used within the 5-minute window. */
  REPLAYED_NONCE: { code: '14', http: 403 },
  /** The merchant has no RSA public key on file for an RSA-SHA256 operation. */
  NO_PUBLIC_KEY: { code: '15', http: 403 },
  /** An unexpected fault inside the sandbox. */
  INTERNAL: { code: '100', http: 500 },
  /** A 500 the sandbox was told to give (misbehaviour switch); nothing was recorded. */
  INJECTED_FAULT: { code: '101', http: 500 },
} as const;

export type ErrorKind = keyof typeof ERROR_CODES;

/** A refusal: thrown anywhere in a request's handling, answered as its table row says. */
export class SandboxRefusal extends Error {
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, message: string) {
    super(message);
    this.name = 'SandboxRefusal';
    this.kind = kind;
  }

  get http(): number {
    return ERROR_CODES[this.kind].http;
  }

  get code(): string {
    return ERROR_CODES[this.kind].code;
  }

  /** validation-error for 400 and 403 (deployed gateways answer auth failures the same way), error for 500. */
  get responseType(): 'validation-error' | 'error' {
    return this.http >= 500 ? 'error' : 'validation-error';
  }
}

export const refuse = (kind: ErrorKind, message: string): SandboxRefusal =>
  new SandboxRefusal(kind, message);
