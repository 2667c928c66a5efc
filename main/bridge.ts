// The one door between the renderer and main. Every call of common/contract.ts goes through
// handle(): the sender must be the app's own top frame, the payload must parse with the call's
// schema, the handler's answer must parse with the result schema (unknown keys are stripped),
// and every outcome is `{ ok: true, data }` or `{ ok: false, error: { code, message } }`.
// A malformed payload is a typed error, never a crash.

import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { ZodError } from 'zod';

import {
  allCalls,
  channelOf,
  contract,
  eventChannelOf,
  events,
  type BridgeErrorData,
  type BridgeResult,
  type EventName,
  type EventOf,
  type MethodOf,
  type Namespace,
  type ParsedRequestOf,
  type ResultOf,
} from '../common/contract';
import { GatewayError, InputError, ValidationError } from './gateway/errors';
import { KeyError } from './keys/errors';
import { silentLogger, type Logger } from './log';
import { SecretStoreError, SecretStoreUnavailableError } from './secrets';
import { deliveryOf, ServiceError } from './services/errors';
import { toStoreError } from './store/errors';
import { JournalError } from './store/journal/types';
import { ProfileError } from './store/profiles/profile';

export type Handlers = {
  [N in Namespace]: {
    [M in MethodOf<N>]: (
      request: ParsedRequestOf<N, M>,
    ) => Promise<ResultOf<N, M>> | ResultOf<N, M>;
  };
};

export interface SenderInfo {
  /** URL of the frame that sent the call. */
  url: string;
  /** True when that frame is its page's top frame (not an iframe). */
  isTopFrame: boolean;
}

export interface BridgeOptions {
  isTrustedSender: (sender: SenderInfo) => boolean;
  log?: Logger;
  /** The database file, named in the sentence of a database error. */
  databaseFile?: string;
}

export interface Bridge {
  readonly channels: readonly string[];
  handle(channel: string, sender: SenderInfo, payload: unknown): Promise<BridgeResult<unknown>>;
}

/**
 * The sender rule of the packaged app: the top frame of a page served from app://paydesk. The
 * whole origin is compared part by part (Node's URL reports the origin "null" for a custom
 * scheme): the scheme, no user name or password (app://evil@paydesk is refused), the host, and
 * no port (app://paydesk:99 is refused).
 */
export function isAppTopFrame(appOrigin: string) {
  const expected = new URL(appOrigin);
  return (sender: SenderInfo): boolean => {
    if (!sender.isTopFrame) return false;
    let url: URL;
    try {
      url = new URL(sender.url);
    } catch {
      return false;
    }
    return (
      url.protocol === expected.protocol &&
      url.username === '' &&
      url.password === '' &&
      url.hostname === expected.hostname &&
      url.port === expected.port
    );
  };
}

function zodDetails(error: ZodError): {
  field?: string;
  details: { path: string; message: string }[];
} {
  const details = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const field = details[0]?.path.split('.').pop();
  return { ...(field ? { field } : {}), details };
}

/**
 * Turns anything a handler throws into what the renderer shows: a code, a sentence, and what
 * main knows of the request behind it (its delivery, services/errors.ts).
 */
export function toBridgeError(
  error: unknown,
  log: Logger = silentLogger,
  databaseFile = '',
): BridgeErrorData {
  return { ...describeError(error, log, databaseFile), delivery: deliveryOf(error) };
}

type Described = Omit<BridgeErrorData, 'delivery'>;

function describeError(error: unknown, log: Logger, databaseFile: string): Described {
  if (error instanceof ZodError) {
    const { field, details } = zodDetails(error);
    return {
      code: 'INVALID_REQUEST',
      message: details[0]?.message ?? 'The request is not valid.',
      ...(field ? { field } : {}),
      details,
    };
  }
  if (error instanceof InputError)
    return {
      code: 'INPUT',
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
    };
  if (error instanceof ValidationError) {
    return {
      code: 'GATEWAY_REFUSED',
      message: error.message,
      details: { gatewayCode: error.gatewayCode, gatewayMessage: error.gatewayMessage },
    };
  }
  if (error instanceof GatewayError) return { code: error.code, message: error.message };
  if (error instanceof ServiceError)
    return {
      code: error.code,
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
    };
  if (error instanceof ProfileError)
    return {
      code: 'PROFILE',
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
    };
  if (error instanceof KeyError)
    return { code: 'KEY', message: error.message, details: { keyCode: error.code } };
  if (error instanceof SecretStoreUnavailableError)
    return { code: 'KEYCHAIN', message: error.message };
  if (error instanceof SecretStoreError) return { code: 'KEYCHAIN', message: error.message };
  if (error instanceof JournalError) return { code: 'JOURNAL', message: error.message };
  // A database failure (locked, read-only, damaged, disk full...), raw SqliteError or StoreError.
  const store = toStoreError(error, databaseFile);
  if (store) {
    log.log('error', 'A database operation failed', {
      code: store.code,
      sqliteCode: store.sqliteCode ?? '',
    });
    return {
      code: 'STORE',
      message: store.message,
      details: { storeCode: store.code, retryable: store.retryable },
    };
  }
  log.log('error', 'Unexpected error behind the bridge', {
    error: error instanceof Error ? error : String(error),
  });
  return {
    code: 'INTERNAL',
    message:
      'Paydesk met an unexpected problem. Try again, and if it persists, send the log to support.',
  };
}

export function createBridge(handlers: Handlers, options: BridgeOptions): Bridge {
  const log = options.log ?? silentLogger;
  const byChannel = new Map<string, { namespace: Namespace; method: string }>();
  for (const [namespace, method] of allCalls())
    byChannel.set(channelOf(namespace, method), { namespace, method });

  return {
    channels: [...byChannel.keys()],
    async handle(channel, sender, payload) {
      const call = byChannel.get(channel);
      if (!call)
        return {
          ok: false,
          error: {
            code: 'UNKNOWN_CALL',
            message: `${channel} is not a Paydesk call.`,
            delivery: 'nothing-sent',
          },
        };
      if (!options.isTrustedSender(sender)) {
        log.log('warn', 'Refused a bridge call from an untrusted frame', {
          channel,
          url: sender.url,
          isTopFrame: sender.isTopFrame,
        });
        return {
          ok: false,
          error: {
            code: 'FORBIDDEN',
            message: 'This window may not call Paydesk.',
            delivery: 'nothing-sent',
          },
        };
      }
      const def = (
        contract[call.namespace] as Record<
          string,
          { request: { parse(v: unknown): unknown }; result: { parse(v: unknown): unknown } }
        >
      )[call.method];
      const handler = (handlers[call.namespace] as Record<string, (request: unknown) => unknown>)[
        call.method
      ];
      if (!def || !handler)
        return {
          ok: false,
          error: {
            code: 'UNKNOWN_CALL',
            message: `${channel} has no handler.`,
            delivery: 'nothing-sent',
          },
        };
      let request: unknown;
      try {
        request = def.request.parse(payload ?? {});
      } catch (error) {
        return { ok: false, error: toBridgeError(error, log) };
      }
      try {
        const result = await handler(request);
        return { ok: true, data: def.result.parse(result ?? null) };
      } catch (error) {
        if (error instanceof ZodError) {
          // A result that does not fit its schema is our bug, not the user's input.
          log.log('error', 'A bridge result did not match its schema', {
            channel,
            issues: error.issues.map((i) => i.path.join('.')),
          });
          // The handler ran: what it sent is unknown here.
          return { ok: false, error: toBridgeError(new Error('result schema'), log) };
        }
        return { ok: false, error: toBridgeError(error, log, options.databaseFile) };
      }
    },
  };
}

function senderOf(event: IpcMainInvokeEvent): SenderInfo {
  const frame = event.senderFrame;
  return { url: frame?.url ?? '', isTopFrame: Boolean(frame && frame.parent === null) };
}

/**
 * Registers one ipcMain handler per call of the contract. This file is the only place raw IPC
 * is touched (an ESLint rule bans it elsewhere); Electron is loaded here lazily so the rest of
 * the bridge runs in plain Node tests.
 */
export async function registerBridgeWithElectron(bridge: Bridge): Promise<() => void> {
  const { ipcMain } = await import('electron');
  return registerBridge(ipcMain, bridge);
}

export function registerBridge(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  bridge: Bridge,
): () => void {
  for (const channel of bridge.channels) {
    ipcMain.handle(channel, (event, payload: unknown) =>
      bridge.handle(channel, senderOf(event), payload),
    );
  }
  return () => bridge.channels.forEach((channel) => ipcMain.removeHandler(channel));
}

/** Sends a typed event to the renderer, checked against its schema first. */
export function sendEvent<E extends EventName>(
  target: Pick<WebContents, 'send' | 'isDestroyed'>,
  event: E,
  payload: EventOf<E>,
): void {
  if (target.isDestroyed()) return;
  target.send(eventChannelOf(event), events[event].parse(payload));
}
