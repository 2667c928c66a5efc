// Errors of the use cases: a rule said no, or something the action needs is missing. Each
// message tells the person at the desk what to do. Every error that crosses the bridge also
// carries what main knows about the action's request (its delivery): the screens say
// "Nothing was sent" only when main says so, and never decide it from an error's code.

import { ZodError } from 'zod';

import type { Delivery } from '../../common/contract';
import { AuthError, GatewayError, InputError, ValidationError } from '../gateway/errors';
import { KeyError } from '../keys/errors';
import { SecretStoreError } from '../secrets/errors';
import { ProfileError } from '../store/profiles/profile';

export type ServiceErrorCode =
  | 'NOT_ALLOWED'
  /** Another action of this order (or another entry) is still in flight: this one was not begun. */
  | 'PENDING'
  /** This action itself may be at the gateway, which has given no final word yet. */
  | 'UNSETTLED'
  | 'AMOUNT'
  | 'REASON'
  | 'CARD_DATA'
  | 'INPUT'
  | 'NO_SECRET'
  | 'ACTION_MISMATCH'
  /** Sent, but its answer could not be written to the journal yet: pending, being retried. */
  | 'NOT_RECORDED'
  | 'NOT_FOUND';

/** Codes that by themselves say the action's request may already be at the gateway. */
const MAY_HAVE_REACHED: ReadonlySet<ServiceErrorCode> = new Set(['UNSETTLED', 'NOT_RECORDED']);

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

/** What the action path learned about an error's request, kept beside the error. */
const marks = new WeakMap<object, Delivery>();

/** Marks what is known of the request behind an error; a mark already set is kept. */
export function markDelivery<E>(error: E, delivery: Delivery): E {
  if (typeof error === 'object' && error !== null && !marks.has(error)) marks.set(error, delivery);
  return error;
}

/**
 * Marks an error thrown before the action's request left: nothing reached the gateway, so the
 * screen says "Nothing was sent" and keeps the form, whatever the error's kind (a store's
 * refusal, a broken rule of the database, a missing key). An error that itself says the action
 * may be at the gateway (UNSETTLED, NOT_RECORDED: a step before this one was sent) stays so.
 */
export function markNothingSent<E>(error: E): E {
  if (error instanceof ServiceError && MAY_HAVE_REACHED.has(error.code))
    return markDelivery(error, 'may-have-reached');
  return markDelivery(error, 'nothing-sent');
}

/**
 * What main knows about the request behind an error: the action path's mark when it set one;
 * otherwise what the error's kind proves. Only errors raised before anything is built or sent
 * (the request's own shape, a rule, a profile, a key) are "nothing sent"; a gateway's refusal of
 * the request is "refused"; anything else (a timeout, a 5xx, the store, a bug) may have reached
 * the gateway, since main cannot prove it did not.
 */
export function deliveryOf(error: unknown): Delivery {
  if (typeof error === 'object' && error !== null) {
    const marked = marks.get(error);
    if (marked) return marked;
  }
  if (error instanceof ServiceError)
    return MAY_HAVE_REACHED.has(error.code) ? 'may-have-reached' : 'nothing-sent';
  if (error instanceof ZodError || error instanceof InputError) return 'nothing-sent';
  if (error instanceof ValidationError || error instanceof AuthError) return 'gateway-refused';
  if (error instanceof GatewayError) return 'may-have-reached';
  // A profile, a key or the keychain: raised while a request is being prepared.
  if (
    error instanceof ProfileError ||
    error instanceof KeyError ||
    error instanceof SecretStoreError
  )
    return 'nothing-sent';
  return 'may-have-reached';
}
