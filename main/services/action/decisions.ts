// The in-flight engine's decisions as pure functions, so that a change to one fails its unit
// test in milliseconds: what sending gave becomes which journal move; whether a failed `status`
// is worth asking again; when an unsettled entry's quarantine ends; and when a follow-up asks
// next or stops. The classes around them (in-flight.ts, settle.ts, follow-up.ts) only do the I/O.

import {
  AuthError,
  GatewayError,
  InputError,
  provablyNotSent,
  TransportError,
  ValidationError,
} from '../../gateway/errors';
import type { GatewayResponse } from '../../gateway/response';
import type {
  EntryResult,
  GatewayAnswer,
  JournalEntry,
  JournalProblem,
} from '../../store/journal/types';
import { outcomeRule } from './outcomes';

/** The journal move for what sending a request gave. */
export type SendMove =
  /** The answer is the final word (a card reference, a subscription). */
  | { move: 'finish'; answer: GatewayAnswer }
  /** The gateway received it; its final word comes by `status`. */
  | { move: 'acknowledge'; orderId?: string; result?: EntryResult }
  /** The gateway refused it, or it provably never left: nothing to follow. */
  | { move: 'refuse'; problem: JournalProblem }
  /** Timeout, cut connection, 5xx, an unreadable or foreign answer: it may have arrived. */
  | { move: 'markUnknown'; problem: JournalProblem };

export function moveAfterSend(
  operation: string,
  ack: GatewayResponse | undefined,
  failure: unknown,
): SendMove {
  if (ack) {
    const outcome = outcomeRule(operation).fromAnswer(ack);
    if (outcome.final)
      return {
        move: 'finish',
        answer: {
          status: outcome.final,
          ...(outcome.orderId ? { orderId: outcome.orderId } : {}),
          ...(outcome.result ? { result: outcome.result } : {}),
        },
      };
    return { move: 'acknowledge', orderId: outcome.orderId, result: outcome.result };
  }
  if (failure instanceof ValidationError || failure instanceof AuthError) {
    return {
      move: 'refuse',
      problem: {
        code: failure instanceof ValidationError ? failure.gatewayCode : failure.code,
        message: failure.message,
      },
    };
  }
  if (provablyNotSent(failure)) {
    return { move: 'refuse', problem: { code: 'NOT_SENT', message: (failure as Error).message } };
  }
  return {
    move: 'markUnknown',
    problem: {
      code: failure instanceof GatewayError ? failure.code : 'UNKNOWN',
      message: failure instanceof Error ? failure.message : String(failure),
    },
  };
}

/**
 * Whether a failed `status` is worth asking again at the next tick: a refused request (bad
 * credentials, bad input) will be refused again, and an abort means the app is quitting; any
 * other failure of the gateway says nothing about the entry.
 */
export function askAgainAfter(error: unknown): boolean {
  if (!(error instanceof GatewayError) || error instanceof AuthError || error instanceof InputError)
    return false;
  return !(error instanceof TransportError && error.code === 'ABORTED');
}

/** When the quarantine of an entry ends: counted from when its request may first have left. */
export function quarantineEnd(entry: JournalEntry, quarantineMs: number): number {
  return Date.parse(entry.sentAt ?? entry.createdAt) + quarantineMs;
}

/** What a follow-up does after a tick that left the entry still in flight. */
export type NextTick = { stop: true } | { stop: false; delayMs: number };

/**
 * The follow-up's next tick. An entry the gateway has shown (acknowledged) is followed for
 * `windowMs` from when it was first seen; one it has not shown yet is asked about at the latest
 * when its quarantine ends, and given up (for the next start to ask) only a whole window after.
 */
export function nextTick(p: {
  acknowledged: boolean;
  now: number;
  /** When the gateway first showed the entry (acknowledged entries only). */
  seenSince: number;
  quarantineEnd: number;
  /** The published cadence's next delay. */
  cadenceMs: number;
  windowMs: number;
}): NextTick {
  if (p.acknowledged) {
    // Processing for longer than the window: it stays pending; a retry or a start asks again.
    if (p.now - p.seenSince + p.cadenceMs > p.windowMs) return { stop: true };
    return { stop: false, delayMs: p.cadenceMs };
  }
  const untilEnd = p.quarantineEnd - p.now;
  // Never give up before the quarantine ends: ask again at the latest when it does.
  if (untilEnd > 0) return { stop: false, delayMs: Math.min(p.cadenceMs, untilEnd) };
  // The gateway unreadable for a whole window after it: the next start asks again.
  if (-untilEnd + p.cadenceMs > p.windowMs) return { stop: true };
  return { stop: false, delayMs: p.cadenceMs };
}
