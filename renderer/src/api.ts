// The renderer's side of the bridge: window.paydesk's result unions turned into data or a
// thrown BridgeError, which is what react-query expects. The renderer never talks HTTP.

import type { BridgeErrorData, BridgeResult } from '../../preload/contract';
import type { PaydeskApi } from '../../preload/api';

export class BridgeError extends Error {
  readonly code: string;
  readonly field?: string;
  readonly details?: unknown;
  constructor(error: BridgeErrorData) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
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

/** The message to show for anything a call threw. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
