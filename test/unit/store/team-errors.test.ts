// What a desk shows for each way the team journal's database can fail: pg's own errors become
// StoreError / JournalError with a sentence; anything that is not the database's passes as is.

import { describe, expect, it } from 'vitest';

import { StoreError } from '../../../main/store/errors';
import { JournalError } from '../../../main/store/journal/types';
import { toTeamError } from '../../../main/store/postgres/errors';

const WHERE = 'PostgreSQL at db.example.com:5432';
/** The shape of pg's DatabaseError: a server's refusal carries a severity and a SQLSTATE. */
const serverSaid = (code: string, message: string) =>
  Object.assign(new Error(message), { severity: 'ERROR', code });
const socket = (code: string) =>
  Object.assign(new Error(`connect ${code} 10.0.0.5:5432`), { code });

describe('toTeamError', () => {
  it.each([
    ['the server refuses connections', socket('ECONNREFUSED')],
    ['the network drops', socket('ECONNRESET')],
    ['the host cannot be found', socket('ENOTFOUND')],
    [
      'the server is shut down mid-work',
      serverSaid('57P01', 'terminating connection due to administrator command'),
    ],
    [
      'the server is starting or stopping',
      serverSaid('57P03', 'the database system is shutting down'),
    ],
    ['the connection is gone', new Error('Connection terminated unexpectedly')],
    [
      'a client already broken',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('%s: UNREACHABLE, retryable, with what to do', (_, error) => {
    const mapped = toTeamError(error, WHERE);
    expect(mapped).toBeInstanceOf(StoreError);
    expect(mapped).toMatchObject({ code: 'UNREACHABLE', retryable: true, cause: error });
    expect((mapped as StoreError).message).toBe(
      `Paydesk cannot reach the team journal's database (${WHERE}: ${error.message}). Nothing that moves money is sent until it is back, because every such request is written to the journal first; looking orders up still works. Check the network, or ask your database administrator.`,
    );
  });

  it.each([
    ['a role without the grant', serverSaid('42501', 'permission denied for table journal')],
    ['a wrong password', serverSaid('28P01', 'password authentication failed for user "ann"')],
  ])('%s: NOT_ALLOWED, not retryable', (_, error) => {
    expect(toTeamError(error, WHERE)).toMatchObject({ code: 'NOT_ALLOWED', retryable: false });
  });

  it("the triggers' refusals are the journal's own", () => {
    for (const code of ['PD001', 'PD002', 'PD003', 'PD005']) {
      const mapped = toTeamError(
        serverSaid(code, 'Journal entry pd-1 is final and cannot change any more.'),
        WHERE,
      );
      expect(mapped).toBeInstanceOf(JournalError);
      expect((mapped as Error).message).toBe(
        'Journal entry pd-1 is final and cannot change any more.',
      );
    }
  });

  it("a not-received before the quarantine is BUSY, to ask again later, in the database's words", () => {
    const early = toTeamError(
      serverSaid('PD004', 'Journal entry pd-1 may still be processed by the gateway.'),
      WHERE,
    );
    expect(early).toMatchObject({ code: 'BUSY', retryable: true });
    expect((early as Error).message).toBe(
      'The team journal keeps this entry pending: Journal entry pd-1 may still be processed by the gateway. Paydesk asks the gateway again then; nothing was sent.',
    );
  });

  it('a lock wait that ran out or a deadlock is BUSY, to try again', () => {
    for (const code of ['55P03', '40P01', '40001'])
      expect(toTeamError(serverSaid(code, 'x'), WHERE)).toMatchObject({
        code: 'BUSY',
        retryable: true,
      });
  });

  it("passes through what is not the database's: a service's refusal with its own code, a StoreError", () => {
    const service = Object.assign(new Error('A refund of order 9001 is pending.'), {
      code: 'PENDING',
    });
    expect(toTeamError(service, WHERE)).toBe(service);
    const busy = new StoreError('BUSY', 'ann is refunding order 9001 right now');
    expect(toTeamError(busy, WHERE)).toBe(busy);
    expect(toTeamError(new TypeError('x is undefined'), WHERE)).toBeInstanceOf(TypeError);
  });
});
