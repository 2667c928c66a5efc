// waitForFinal: polls `status` until the order reaches a final status, with the cadence the
// gateway publishes (every 3-5 s for the first 5 minutes, then every 5-10 minutes, up to an
// hour; after that the callback is the only word left). Reading status is safe to repeat, so a
// failed poll is reported and tried again at the next tick; a refused one stops the wait.

import { AuthError, GatewayError, InputError, TransportError, ValidationError } from './errors';
import { isFinalStatus, type StatusResponse } from './response';
import type { OrderRef } from './client';

export interface PollStep {
  attempt: number;
  elapsedMs: number;
  /** The answer of this poll, or the error it met. */
  response?: StatusResponse;
  error?: GatewayError;
  /** Milliseconds until the next poll; undefined when this was the last. */
  nextInMs?: number;
}

export type WaitOutcome =
  | { final: true; response: StatusResponse; attempts: number }
  | { final: false; reason: 'gave-up'; last?: StatusResponse; attempts: number };

export interface WaitOptions {
  signal?: AbortSignal;
  onStep?: (step: PollStep) => void;
  /** How long to wait before the next poll, given the time since the first one. */
  delayAfter?: (elapsedMs: number, attempt: number) => number;
  /** Stop after this long without a final status (one hour by default). */
  giveUpAfterMs?: number;
  /** Clock and sleep, replaceable so tests run the hour in an instant. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const FIVE_MINUTES = 5 * 60_000;
export const ONE_HOUR = 60 * 60_000;

/** 3 s, growing to 5 s over the first five minutes; then 5 minutes, growing to 10. */
export function publishedCadence(elapsedMs: number, attempt: number): number {
  if (elapsedMs < FIVE_MINUTES) return Math.min(3_000 + attempt * 250, 5_000);
  return Math.min(FIVE_MINUTES + Math.floor((elapsedMs - FIVE_MINUTES) / 6), 10 * 60_000);
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(): TransportError {
  return new TransportError(
    'ABORTED',
    'Stopped following the order; its status will be checked again later.',
  );
}

export interface StatusSource {
  status(ref: OrderRef, signal?: AbortSignal): Promise<StatusResponse>;
}

export async function waitForFinal(
  client: StatusSource,
  ref: OrderRef,
  options: WaitOptions = {},
): Promise<WaitOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const delayAfter = options.delayAfter ?? publishedCadence;
  const giveUpAfterMs = options.giveUpAfterMs ?? ONE_HOUR;
  const started = now();
  let last: StatusResponse | undefined;

  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) throw abortError();
    let response: StatusResponse | undefined;
    let error: GatewayError | undefined;
    try {
      response = await client.status(ref, options.signal);
      last = response;
    } catch (caught) {
      // A refused status request will be refused again: stop and say why.
      if (
        caught instanceof ValidationError ||
        caught instanceof AuthError ||
        caught instanceof InputError
      )
        throw caught;
      if (caught instanceof TransportError && caught.code === 'ABORTED') throw caught;
      if (!(caught instanceof GatewayError)) throw caught;
      error = caught;
    }
    const elapsedMs = now() - started;
    if (response && isFinalStatus(response.status)) {
      options.onStep?.({ attempt, elapsedMs, response });
      return { final: true, response, attempts: attempt };
    }
    const nextInMs = delayAfter(elapsedMs, attempt);
    if (elapsedMs + nextInMs > giveUpAfterMs) {
      options.onStep?.({ attempt, elapsedMs, response, error });
      return { final: false, reason: 'gave-up', last, attempts: attempt };
    }
    options.onStep?.({ attempt, elapsedMs, response, error, nextInMs });
    await sleep(nextInMs, options.signal);
  }
}
