// Errors of the use cases: a rule said no, or something the action needs is missing. Each
// message tells the person at the desk what to do.

export type ServiceErrorCode =
  | 'NOT_ALLOWED'
  | 'PENDING'
  | 'AMOUNT'
  | 'REASON'
  | 'CARD_DATA'
  | 'INPUT'
  | 'NO_SECRET'
  | 'ACTION_MISMATCH'
  /** Sent, but its answer could not be written to the journal yet: pending, being retried. */
  | 'NOT_RECORDED'
  | 'NOT_FOUND';

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** Errors thrown before an action's request could leave this desk (action-path.ts). */
const nothingSentErrors = new WeakSet<object>();

/**
 * Marks an error as thrown before the action's request left: nothing reached the gateway, so the
 * screen says "Nothing was sent" and keeps the form, whatever the error's kind (a store's
 * refusal, a broken rule of the database, a missing key). Only the action path marks errors;
 * everything else stays "may or may not have reached the gateway".
 */
export function markNothingSent<E>(error: E): E {
  if (typeof error === 'object' && error !== null) nothingSentErrors.add(error);
  return error;
}

export function isNothingSent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && nothingSentErrors.has(error);
}
