// The sandbox's request log stays bounded and keeps the newest requests, oldest first, after
// it has wrapped: what the tests that prove which requests a client sent read.

import { describe, expect, it } from 'vitest';

import { RequestLog } from '../../main/sandbox/request-log';

const entry = (n: number) => ({ operation: 'STATUS', orderid: String(n) });

describe('the request log', () => {
  it('keeps every request, oldest first, until it is full', () => {
    const log = new RequestLog(3);
    log.add(entry(1));
    log.add(entry(2));
    expect(log.list().map((r) => r.orderid)).toEqual(['1', '2']);
  });

  it('keeps the newest `limit` requests, oldest first, once it has wrapped', () => {
    const log = new RequestLog(3);
    for (let n = 1; n <= 7; n++) log.add(entry(n));
    expect(log.list().map((r) => r.orderid)).toEqual(['5', '6', '7']);
    log.add(entry(8));
    expect(log.list().map((r) => r.orderid)).toEqual(['6', '7', '8']);
  });

  it('hands out a copy that later requests do not change', () => {
    const log = new RequestLog(2);
    log.add(entry(1));
    const seen = log.list();
    log.add(entry(2));
    log.add(entry(3));
    expect(seen.map((r) => r.orderid)).toEqual(['1']);
  });

  it('refuses a limit below one', () => {
    expect(() => new RequestLog(0)).toThrow(/at least 1/);
  });
});
