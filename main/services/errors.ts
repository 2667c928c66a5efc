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
