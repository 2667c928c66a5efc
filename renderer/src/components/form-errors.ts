// Field-level errors for the admin forms: from the contract's zod schemas before a call, and
// from the bridge (BridgeError.field) after one, so both land under the same input.

import type { z } from 'zod';

import { BridgeError } from '../api';

export type FieldErrors = Partial<Record<string, string>>;

/** The first message for each top-level field of a failed parse. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/** Splits a call's error into a field error (when the bridge named a field we show) or a general one. */
export function splitBridgeError(
  error: unknown,
  fields: readonly string[],
): { fieldErrors: FieldErrors; general: unknown } {
  if (error instanceof BridgeError && error.field && fields.includes(error.field)) {
    return { fieldErrors: { [error.field]: error.message }, general: undefined };
  }
  return { fieldErrors: {}, general: error };
}

/** Props that tie an input to its hint and error for assistive technology. */
export function describedBy(id: string, error: string | undefined, hint = false) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': ids || undefined,
  };
}
