import { describe, expect, it } from 'vitest';

import { AuthError, ServerError, TransportError } from '../../../main/gateway/errors';
import {
  ONE_HOUR,
  publishedCadence,
  waitForFinal,
  type PollStep,
} from '../../../main/gateway/poll';
import type { OrderStatus, StatusResponse } from '../../../main/gateway/response';

const statusOf = (status: OrderStatus): StatusResponse => ({
  type: 'status-response',
  status,
  card: {},
  fields: { type: 'status-response', status },
});

/** A fake clock: sleeping moves time forward at once, so an hour of polling runs in an instant. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) return Promise.reject(new TransportError('ABORTED', 'stopped'));
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    sleeps,
  };
}

describe('waitForFinal', () => {
  it('polls until a final status and reports each step', async () => {
    const answers: (StatusResponse | Error)[] = [
      statusOf('processing'),
      new ServerError(502, '', 'busy'),
      statusOf('processing'),
      statusOf('approved'),
    ];
    const client = {
      status: () => {
        const next = answers.shift()!;
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      },
    };
    const time = fakeTime();
    const steps: PollStep[] = [];
    const outcome = await waitForFinal(
      client,
      { orderid: '1' },
      { ...time, onStep: (s) => steps.push(s) },
    );
    expect(outcome).toMatchObject({ final: true, attempts: 4, response: { status: 'approved' } });
    expect(steps.map((s) => s.response?.status ?? s.error?.code)).toEqual([
      'processing',
      'SERVER',
      'processing',
      'approved',
    ]);
    expect(steps.at(-1)?.nextInMs).toBeUndefined();
  });

  it('follows the published cadence: every 3-5 s for five minutes, then 5-10 minutes, giving up after an hour', async () => {
    let polls = 0;
    const client = {
      status: () => {
        polls++;
        return Promise.resolve(statusOf('processing'));
      },
    };
    const time = fakeTime();
    const outcome = await waitForFinal(client, { orderid: '1' }, time);
    expect(outcome).toMatchObject({
      final: false,
      reason: 'gave-up',
      last: { status: 'processing' },
    });
    const early = time.sleeps.filter(
      (_, i) => time.sleeps.slice(0, i).reduce((a, b) => a + b, 0) < 5 * 60_000,
    );
    expect(Math.min(...early)).toBeGreaterThanOrEqual(3_000);
    expect(Math.max(...early)).toBeLessThanOrEqual(5_000);
    const late = time.sleeps.slice(early.length);
    expect(late.length).toBeGreaterThan(0);
    for (const ms of late) {
      expect(ms).toBeGreaterThanOrEqual(5 * 60_000);
      expect(ms).toBeLessThanOrEqual(10 * 60_000);
    }
    expect(time.now()).toBeLessThanOrEqual(ONE_HOUR);
    expect(polls).toBe(time.sleeps.length + 1);
  });

  it('keeps polling an unknown status, which is not final', async () => {
    const answers = [statusOf('unknown'), statusOf('unknown'), statusOf('declined')];
    const outcome = await waitForFinal(
      { status: () => Promise.resolve(answers.shift()!) },
      { orderid: '1' },
      fakeTime(),
    );
    expect(outcome).toMatchObject({ final: true, response: { status: 'declined' } });
  });

  it('stops at once when the gateway refuses the credentials', async () => {
    const client = { status: () => Promise.reject(new AuthError(403, '')) };
    await expect(waitForFinal(client, { orderid: '1' }, fakeTime())).rejects.toThrow(AuthError);
  });

  it('can be aborted between polls', async () => {
    const controller = new AbortController();
    const client = {
      status: () => {
        controller.abort();
        return Promise.resolve(statusOf('processing'));
      },
    };
    await expect(
      waitForFinal(client, { orderid: '1' }, { ...fakeTime(), signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('the cadence function stays inside the published bounds', () => {
    for (let t = 0; t < ONE_HOUR; t += 7_000) {
      const ms = publishedCadence(t, Math.floor(t / 4_000));
      if (t < 5 * 60_000) expect(ms).toBeGreaterThanOrEqual(3_000);
      if (t < 5 * 60_000) expect(ms).toBeLessThanOrEqual(5_000);
      else expect(ms).toBeGreaterThanOrEqual(5 * 60_000);
      expect(ms).toBeLessThanOrEqual(10 * 60_000);
    }
  });
});
