// The renderer's side of the bridge: window.paydesk's result unions turned into data or a
// thrown BridgeError, which is what react-query expects. The renderer never talks HTTP.

import type { BridgeErrorData, BridgeResult, Delivery } from '../../common/contract';
import type { PaydeskApi } from '../../preload/api';

export class BridgeError extends Error {
  readonly code: string;
  readonly field?: string;
  readonly details?: unknown;
  /** What the main process knows of the request behind the error (never guessed here). */
  readonly delivery: Delivery;
  constructor(error: BridgeErrorData) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
    this.delivery = error.delivery;
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
      delivery: 'nothing-sent',
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

/**
 * What a failed send of a money action means, for every screen that sends one, read from the
 * main process's mark alone:
 * - `stopped`: nothing was sent; the form stays, with the same action id;
 * - `closed`: the gateway said no (nothing processed); a new attempt needs a new id;
 * - `unknown`: the request may have reached the gateway; only "Try again" (the same id, which
 *   asks the gateway first) is safe. Anything that is not the bridge's error is unknown too.
 */
export function sendFailure(error: unknown): 'stopped' | 'closed' | 'unknown' {
  if (!(error instanceof BridgeError)) return 'unknown';
  if (error.delivery === 'nothing-sent') return 'stopped';
  if (error.delivery === 'gateway-refused') return 'closed';
  return 'unknown';
}

/** The message to show for anything a call threw. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
