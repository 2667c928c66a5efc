// The in-flight engine's decisions (main/services/action/decisions.ts), without HTTP or a
// journal: which move sending leads to, which failed status is asked again, when quarantine
// ends and when a follow-up stops. A change to any of these rules fails here in milliseconds.
import { describe, expect, it } from 'vitest';

import {
  AuthError,
  InputError,
  ServerError,
  TransportError,
  ValidationError,
} from '../../../main/gateway/errors';
import { readResponse } from '../../../main/gateway/response';
import {
  askAgainAfter,
  moveAfterSend,
  nextTick,
  quarantineEnd,
} from '../../../main/services/action/decisions';
import type { JournalEntry } from '../../../main/store/journal/types';

const JSON_TYPE = 'application/json';
const answer = (fields: Record<string, string>, type: Parameters<typeof readResponse>[1]) =>
  readResponse({ status: 200, contentType: JSON_TYPE, body: JSON.stringify(fields) }, type);

describe('moveAfterSend: what sending gave becomes one journal move', () => {
  it('an accepted refund is acknowledged with its orderid, to be followed by status', () => {
    const ack = answer(
      { type: 'async-response', 'paynet-order-id': '77', 'merchant-order-id': 'pd-1' },
      'async-response',
    );
    expect(moveAfterSend('RETURN', ack, undefined)).toEqual({
      move: 'acknowledge',
      orderId: '77',
      result: undefined,
    });
  });

  it('a card reference is final with its answer: there is no order to follow', () => {
    const ack = answer(
      {
        type: 'create-card-ref-response',
        status: 'approved',
        'card-ref-id': '5',
        'paynet-order-id': '12',
      },
      'create-card-ref-response',
    );
    expect(moveAfterSend('CARDREF', ack, undefined)).toEqual({
      move: 'finish',
      answer: { status: 'approved', result: { 'card-ref-id': '5' } },
    });
  });

  it("the gateway's refusal is recorded with the gateway's own code", () => {
    const refused = new ValidationError('2', 'amount is too large', 200);
    expect(moveAfterSend('RETURN', undefined, refused)).toMatchObject({
      move: 'refuse',
      problem: { code: '2' },
    });
    expect(moveAfterSend('RETURN', undefined, new AuthError(403, 'bad login'))).toMatchObject({
      move: 'refuse',
      problem: { code: 'AUTH' },
    });
  });

  it('only a request that provably never left is closed as not sent', () => {
    const refusedConnection = new TransportError('TRANSPORT', 'ECONNREFUSED', { neverLeft: true });
    expect(moveAfterSend('RETURN', undefined, refusedConnection)).toMatchObject({
      move: 'refuse',
      problem: { code: 'NOT_SENT' },
    });
  });

  it.each([
    ['a time-out', new TransportError('TIMEOUT', 'no answer in 30 s')],
    ['a cut connection', new TransportError('TRANSPORT', 'socket hang up')],
    ['a 500', new ServerError(500, '', 'fault')],
    ['anything else', new Error('unreadable answer')],
  ])('after %s the request may have arrived: unsettled, never "not sent"', (_, failure) => {
    const decided = moveAfterSend('RETURN', undefined, failure);
    expect(decided.move).toBe('markUnknown');
    expect(decided).not.toMatchObject({ problem: { code: 'NOT_SENT' } });
  });
});

describe('askAgainAfter: which failed status is asked again at the next tick', () => {
  it.each([
    ['a time-out', new TransportError('TIMEOUT', 'slow'), true],
    ['a 500', new ServerError(503, '', 'busy'), true],
    ['refused credentials', new AuthError(401, 'no'), false],
    ['bad input', new InputError('bad field', 'orderid'), false],
    ['the app quitting', new TransportError('ABORTED', 'stopped'), false],
    ['a bug of ours', new TypeError('x is undefined'), false],
  ])('%s: %s', (_, error, again) => {
    expect(askAgainAfter(error)).toBe(again);
  });
});

const entry = (sentAt: string | null, createdAt = '2026-11-27T10:00:00.000Z') =>
  ({ sentAt, createdAt }) as JournalEntry;

describe('quarantineEnd', () => {
  it('counts from when the request may first have left, else from when it was written', () => {
    expect(quarantineEnd(entry('2026-11-27T10:05:00.000Z'), 60_000)).toBe(
      Date.parse('2026-11-27T10:06:00.000Z'),
    );
    expect(quarantineEnd(entry(null), 60_000)).toBe(Date.parse('2026-11-27T10:01:00.000Z'));
  });
});

describe('nextTick: when a follow-up asks next, and when it leaves the entry to a start', () => {
  const base = { now: 1_000_000, seenSince: 1_000_000, cadenceMs: 5_000, windowMs: 3_600_000 };

  it('an unsettled entry is asked at the latest when its quarantine ends', () => {
    expect(nextTick({ ...base, acknowledged: false, quarantineEnd: base.now + 2_000 })).toEqual({
      stop: false,
      delayMs: 2_000,
    });
    expect(nextTick({ ...base, acknowledged: false, quarantineEnd: base.now + 60_000 })).toEqual({
      stop: false,
      delayMs: 5_000,
    });
  });

  it('an unsettled entry is never given up before its quarantine and a whole window after', () => {
    const ended = base.now - base.windowMs + 10_000;
    expect(nextTick({ ...base, acknowledged: false, quarantineEnd: ended })).toEqual({
      stop: false,
      delayMs: 5_000,
    });
    expect(
      nextTick({ ...base, acknowledged: false, quarantineEnd: base.now - base.windowMs }),
    ).toEqual({ stop: true });
  });

  it('an entry the gateway has shown is followed for a window from when it was first seen', () => {
    const seen = { ...base, acknowledged: true, quarantineEnd: 0 };
    expect(nextTick({ ...seen, seenSince: base.now - 60_000 })).toEqual({
      stop: false,
      delayMs: 5_000,
    });
    expect(nextTick({ ...seen, seenSince: base.now - base.windowMs + 1_000 })).toEqual({
      stop: true,
    });
  });
});
