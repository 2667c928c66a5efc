// What main tells the screens about the request behind each error the bridge can carry
// (services/errors.ts deliveryOf), checked for every code: the tables are Records over the code
// types, so a new code does not compile until someone says whether a request could have left.
// - Outside an action (a lookup, a preview, a rule checked before the action path): only what
//   happens before anything is built or sent is "nothing sent".
// - Inside the action path, the stage decides: before the request left, nothing was sent (the
//   codes that say "this action may be at the gateway" excepted); on a retry of an action id in
//   the journal, everything may have reached the gateway. The screens read only this mark.

import { ZodError } from 'zod';
import { describe, expect, it } from 'vitest';

import type { Delivery } from '../../../common/contract';
import { toBridgeError } from '../../../main/bridge';
import {
  AuthError,
  IdentityError,
  InputError,
  ServerError,
  TransportError,
  UnreadableResponseError,
  ValidationError,
  type GatewayErrorCode,
} from '../../../main/gateway/errors';
import { KeyError } from '../../../main/keys/errors';
import { SecretStoreError, SecretStoreUnavailableError } from '../../../main/secrets';
import {
  markDelivery,
  markNothingSent,
  ServiceError,
  type ServiceErrorCode,
} from '../../../main/services/errors';
import { StoreError } from '../../../main/store/errors';
import { JournalError } from '../../../main/store/journal/types';
import { ProfileError } from '../../../main/store/profiles/profile';
import { BridgeError, sendFailure } from '../../../renderer/src/api';

/** Each service code: may its request already be at the gateway when it is thrown? */
const SERVICE: Record<ServiceErrorCode, Delivery> = {
  NOT_ALLOWED: 'nothing-sent',
  // A rule: another action of this order is in flight; this one was not begun.
  PENDING: 'nothing-sent',
  // This action, possibly at the gateway, with no final word yet.
  UNSETTLED: 'may-have-reached',
  AMOUNT: 'nothing-sent',
  REASON: 'nothing-sent',
  CARD_DATA: 'nothing-sent',
  INPUT: 'nothing-sent',
  NO_SECRET: 'nothing-sent',
  ACTION_MISMATCH: 'nothing-sent',
  // Sent; its answer is not recorded yet.
  NOT_RECORDED: 'may-have-reached',
  NOT_FOUND: 'nothing-sent',
};

/** The gateway client's errors, as a send throws them. */
const GATEWAY: Record<GatewayErrorCode, [() => Error, Delivery]> = {
  INPUT: [() => new InputError('amount has three decimals', 'amount'), 'nothing-sent'],
  VALIDATION: [() => new ValidationError('7', 'above what is left', 400), 'gateway-refused'],
  AUTH: [() => new AuthError(403, 'bad signature'), 'gateway-refused'],
  SERVER: [() => new ServerError(502, '', 'bad gateway'), 'may-have-reached'],
  TRANSPORT: [() => new TransportError('TRANSPORT', 'connection reset'), 'may-have-reached'],
  TIMEOUT: [() => new TransportError('TIMEOUT', 'no answer in 1 s'), 'may-have-reached'],
  UNREADABLE: [
    () => new UnreadableResponseError(200, 'text/html', 'not an answer'),
    'may-have-reached',
  ],
  ABORTED: [() => new TransportError('ABORTED', 'the app quit'), 'may-have-reached'],
  IDENTITY: [() => new IdentityError('merchant-order-id', 'pd-1', 'pd-2'), 'may-have-reached'],
};

/** Everything else a handler can throw. */
const OTHER: [string, () => unknown, Delivery][] = [
  ['INVALID_REQUEST', () => new ZodError([]), 'nothing-sent'],
  ['PROFILE', () => new ProfileError('no such profile'), 'nothing-sent'],
  ['KEY', () => new KeyError('not-pem', 'not a PEM'), 'nothing-sent'],
  ['KEYCHAIN', () => new SecretStoreError('locked'), 'nothing-sent'],
  ['KEYCHAIN', () => new SecretStoreUnavailableError('locked', 'no keychain'), 'nothing-sent'],
  ['JOURNAL', () => new JournalError('entry changed meanwhile'), 'may-have-reached'],
  ['STORE', () => new StoreError('BUSY', 'the database is busy'), 'may-have-reached'],
  ['INTERNAL', () => new TypeError('x is undefined'), 'may-have-reached'],
];

const service = (code: ServiceErrorCode) => new ServiceError(code, `${code} happened`);
const SCREEN: Record<Delivery, ReturnType<typeof sendFailure>> = {
  'nothing-sent': 'stopped',
  'gateway-refused': 'closed',
  'may-have-reached': 'unknown',
};

/** A fresh error of every kind (a mark stays with its error object). */
const everyError = (): unknown[] => [
  ...Object.keys(SERVICE).map((c) => service(c as ServiceErrorCode)),
  ...Object.values(GATEWAY).map(([make]) => make()),
  ...OTHER.map(([, make]) => make()),
];

/** The bridge's mark and what a money screen makes of it. */
function shown(error: unknown) {
  const data = toBridgeError(error);
  return { delivery: data.delivery, screen: sendFailure(new BridgeError(data)) };
}

describe('the mark on every error the bridge can carry', () => {
  it('outside an action: by what the error proves', () => {
    for (const [code, delivery] of Object.entries(SERVICE) as [ServiceErrorCode, Delivery][])
      expect(shown(service(code)), code).toEqual({ delivery, screen: SCREEN[delivery] });
    for (const [code, [error, delivery]] of Object.entries(GATEWAY))
      expect(shown(error()), code).toEqual({ delivery, screen: SCREEN[delivery] });
    for (const [code, error, delivery] of OTHER)
      expect(shown(error()), code).toEqual({ delivery, screen: SCREEN[delivery] });
    // A connection refused before any byte left: provably never sent.
    expect(shown(new TransportError('TRANSPORT', 'refused', { neverLeft: true })).delivery).toBe(
      'may-have-reached',
    );
  });

  it('before the action path sent anything: nothing was sent, unless the code says it may be at the gateway', () => {
    const all = everyError();
    for (const error of all) {
      const expected =
        error instanceof ServiceError && SERVICE[error.code] === 'may-have-reached'
          ? 'may-have-reached'
          : 'nothing-sent';
      expect(shown(markNothingSent(error)).delivery, String(error)).toBe(expected);
    }
  });

  it('on a retry of an action id already in the journal: every error may have reached the gateway', () => {
    const all = everyError();
    for (const error of all) {
      expect(shown(markDelivery(error, 'may-have-reached')), String(error)).toEqual({
        delivery: 'may-have-reached',
        screen: 'unknown',
      });
    }
  });

  it('a mark once set is kept: a later, vaguer layer cannot turn "may have reached" into "nothing sent"', () => {
    const retried = markDelivery(service('UNSETTLED'), 'may-have-reached');
    expect(shown(markNothingSent(retried)).delivery).toBe('may-have-reached');
  });
});
