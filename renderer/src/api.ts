// The renderer's side of the bridge: window.paydesk's result unions turned into data or a
// thrown BridgeError, which is what react-query expects. The renderer never talks HTTP.

import type { BridgeErrorData, BridgeResult } from '../../common/contract';
import type { PaydeskApi } from '../../preload/api';

export class BridgeError extends Error {
  readonly code: string;
  readonly field?: string;
  readonly details?: unknown;
  /** The action's request never left the desk (the main process knows it). */
  readonly nothingSent: boolean;
  constructor(error: BridgeErrorData) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
    this.nothingSent = error.nothingSent === true;
    if (error.field !== undefined) this.field = error.field;
    if (error.details !== undefined) this.details = error.details;
  }
}

export function paydesk(): PaydeskApi {
  const api = window.paydesk;
  if (!api) {
    throw new BridgeError({
      code: 'NO_BRIDGE',
      message: 'Paydesk runs inside its desktop app; this page was opened without it.',
    });
  }
  return api;
}

export async function unwrap<T>(result: Promise<BridgeResult<T>>): Promise<T> {
  const answer = await result;
  if (answer.ok) return answer.data;
  throw new BridgeError(answer.error);
}

const REFUSING_STORES = new Set(['NOT_ALLOWED', 'READ_ONLY', 'UNREACHABLE']);

/**
 * The journal's store refused before anything was sent: a team login's role, a read-only
 * database, a team database away. (A store failure after sending reaches the screen as
 * NOT_RECORDED, never as STORE.) The screen shows the sentence and stays on the form.
 */
export function isStoreRefusal(error: unknown): boolean {
  if (!(error instanceof BridgeError) || error.code !== 'STORE') return false;
  const storeCode = (error.details as { storeCode?: unknown } | undefined)?.storeCode;
  return typeof storeCode === 'string' && REFUSING_STORES.has(storeCode);
}

/** The caller's input was wrong: nothing was written or sent; fix the field and go on. */
export const FIELD_CODES: ReadonlySet<string> = new Set([
  'INVALID_REQUEST',
  'INPUT',
  'AMOUNT',
  'REASON',
]);
/** A rule or a missing secret stopped the action before anything was written or sent. */
const STOPPED_CODES = new Set([
  'NOT_ALLOWED',
  'PENDING',
  'NO_SECRET',
  'PROFILE',
  'KEY',
  'KEYCHAIN',
]);
/** The gateway said no (nothing processed) or the id is spent: a new attempt needs a new id. */
const CLOSED_CODES = new Set(['GATEWAY_REFUSED', 'AUTH', 'ACTION_MISMATCH']);

/**
 * What a failed send of a money action means, for every screen that sends one:
 * - `stopped`: nothing was sent (bad input, a rule, a store's refusal, or anything the main
 *   process says failed before the request left); the form stays, with the same action id;
 * - `closed`: the gateway said no, or the action id is spent; a new attempt needs a new id;
 * - `unknown`: the request may or may not have reached the gateway; only "Try again" (the same
 *   id, which asks the gateway first) is safe.
 */
export function sendFailure(error: unknown): 'stopped' | 'closed' | 'unknown' {
  if (!(error instanceof BridgeError)) return 'unknown';
  if (CLOSED_CODES.has(error.code)) return 'closed';
  if (
    error.nothingSent ||
    FIELD_CODES.has(error.code) ||
    STOPPED_CODES.has(error.code) ||
    isStoreRefusal(error)
  )
    return 'stopped';
  return 'unknown';
}

/** The message to show for anything a call threw. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
