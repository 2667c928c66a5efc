// Typed errors of the gateway client. Every message is written for the person at the desk:
// it says what happened and what to do next, never a stack trace or a secret.

export type GatewayErrorCode =
  | 'INPUT'
  | 'VALIDATION'
  | 'AUTH'
  | 'SERVER'
  | 'TRANSPORT'
  | 'TIMEOUT'
  | 'UNREADABLE'
  | 'ABORTED'
  | 'IDENTITY';

export abstract class GatewayError extends Error {
  abstract readonly code: GatewayErrorCode;
}

/** Bad input caught on this machine, before anything was signed or sent. */
export class InputError extends GatewayError {
  readonly code = 'INPUT';
  constructor(
    message: string,
    /** The request field (or credential) to fix, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

/** The gateway refused the request as invalid (HTTP 400, or a validation-error body). */
export class ValidationError extends GatewayError {
  readonly code = 'VALIDATION';
  constructor(
    readonly gatewayCode: string,
    readonly gatewayMessage: string,
    readonly httpStatus: number,
  ) {
    super(
      `The gateway refused the request: ${gatewayMessage || 'no reason given'}` +
        (gatewayCode ? ` (error code ${gatewayCode})` : '') +
        '. Nothing was processed; correct the request and send it again.',
    );
    this.name = 'ValidationError';
  }
}

/** The gateway did not accept our signature or login (HTTP 401/403). */
export class AuthError extends GatewayError {
  readonly code = 'AUTH';
  constructor(
    readonly httpStatus: number,
    readonly gatewayMessage: string,
  ) {
    super(
      `The gateway did not accept this profile's credentials (HTTP ${httpStatus}` +
        (gatewayMessage ? `: ${gatewayMessage}` : '') +
        "). Check the login, the control key and, for RSA-signed operations, that the gateway holds this profile's public key.",
    );
    this.name = 'AuthError';
  }
}

/** The gateway reported a fault on its side (HTTP 5xx, or an error body). */
export class ServerError extends GatewayError {
  readonly code = 'SERVER';
  constructor(
    readonly httpStatus: number,
    readonly gatewayCode: string,
    readonly gatewayMessage: string,
  ) {
    super(
      `The gateway reported a fault on its side (HTTP ${httpStatus}` +
        (gatewayMessage ? `: ${gatewayMessage}` : '') +
        (gatewayCode ? `, error code ${gatewayCode}` : '') +
        '). The operation may or may not have been recorded: look the order up before trying again.',
    );
    this.name = 'ServerError';
  }
}

/** The request did not reach the gateway, or its answer did not reach us. */
export class TransportError extends GatewayError {
  readonly code: 'TRANSPORT' | 'TIMEOUT' | 'ABORTED';
  /**
   * True only when the request provably never left this computer: no connection was made
   * (DNS failure, connection refused, TLS refused before any byte of the request was written,
   * cancelled or timed out before connecting). Anything else may have reached the gateway.
   */
  readonly neverLeft: boolean;
  constructor(
    code: 'TRANSPORT' | 'TIMEOUT' | 'ABORTED',
    message: string,
    options?: { cause?: unknown; neverLeft?: boolean },
  ) {
    super(message, options);
    this.code = code;
    this.neverLeft = options?.neverLeft ?? false;
    this.name = 'TransportError';
  }
}

/** True when the error proves the request never left: nothing can have been recorded. */
export function provablyNotSent(error: unknown): boolean {
  return error instanceof TransportError && error.neverLeft;
}

/**
 * The gateway answered about another order than the one asked about (its merchant-order-id or
 * paynet-order-id is not the request's). Nothing is recorded from such an answer.
 */
export class IdentityError extends GatewayError {
  readonly code = 'IDENTITY';
  constructor(
    readonly field: 'merchant-order-id' | 'paynet-order-id',
    readonly expected: string,
    readonly received: string | undefined,
  ) {
    super(
      `The gateway's answer is about another order (${field} ${received === undefined ? 'missing' : JSON.stringify(received)}, asked about ${JSON.stringify(expected)}); nothing was recorded from it. ` +
        'Look the order up again; if this repeats, tell the gateway operator.',
    );
    this.name = 'IdentityError';
  }
}

/** The gateway answered, but with a body we cannot read as any response of the spec. */
export class UnreadableResponseError extends GatewayError {
  readonly code = 'UNREADABLE';
  constructor(
    readonly httpStatus: number,
    readonly contentType: string,
    detail: string,
  ) {
    super(
      `The gateway's answer could not be read (HTTP ${httpStatus}, ${contentType || 'no content type'}: ${detail}). ` +
        'The operation may or may not have been recorded: look the order up before trying again.',
    );
    this.name = 'UnreadableResponseError';
  }
}
