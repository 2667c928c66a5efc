// The sandbox gateway's public face: start it in-process (main's first-run "Sandbox" profile,
// the tests) or from the command line (cli.ts).

export { startSandbox } from './server';
export type {
  OrderAlteration,
  Sandbox,
  SandboxOptions,
  SandboxOrder,
  SandboxRequest,
} from './server';
export { SandboxClock } from './clock';
export { ERROR_CODES } from './codes';
export type { ErrorKind } from './codes';
export { TEST_CVV2 } from './cards';
export { ACS_CODE } from './pages';
export { OAUTH_WINDOW_SECONDS } from './auth';
export { parseMerchantsJson, MerchantConfigError } from './merchants';
export type { Merchant, MerchantInput, ResponseFormat } from './merchants';
export type { Misbehaviour } from './misbehaviour';
export type { CallbackSettings } from './callbacks';
