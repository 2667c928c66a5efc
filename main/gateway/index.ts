// The gateway module's public face: the operation table, request building, the client, and
// the helpers that follow an order and check what the gateway sends back.

export { buildRequest, validateBaseUrl, isLoopbackHost, VND_PAY_JSON } from './request';
export type { Credentials, PreparedRequest, BuildOptions } from './request';
export { OPERATIONS, REQUEST_OPERATIONS, getOperation, isRequestOperation } from './operations';
export type {
  OperationDef,
  RequestOperation,
  ResponseType,
  AuthScheme,
  ControlPart,
} from './operations';
export { GatewayClient } from './client';
export type { OrderRef, CallOptions, ClientOptions } from './client';
export { waitForFinal, publishedCadence } from './poll';
export type { PollStep, WaitOutcome, WaitOptions } from './poll';
export { verifyCallback, callbackControl } from './callback';
export { parseAmount, parseCurrency, formatMinor } from './amount';
export type { Amount } from './amount';
export { isFinalStatus, FINAL_STATUSES } from './response';
export type * from './response';
export * from './errors';
