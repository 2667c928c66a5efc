// Typed errors of the gateway client. Every message is written for the person at the desk:
// it says what happened and what to do next, never a stack trace or a secret.

export type GatewayErrorCode =
  'INPUT' | 'VALIDATION' | 'AUTH' | 'SERVER' | 'TRANSPORT' | 'TIMEOUT' | 'UNREADABLE' | 'ABORTED';

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
  constructor(
    code: 'TRANSPORT' | 'TIMEOUT' | 'ABORTED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.name = 'TransportError';
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
