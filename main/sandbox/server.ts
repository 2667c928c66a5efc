// The sandbox gateway's HTTP server (node:http on 127.0.0.1): routes every operation of the
// table under `{prefix}/api/...`, checks each request as a strict gateway would (Accept, form
// body, fields, checksum or signature), runs it, and answers JSON or the deployed key=value
// layout. Also serves the sandbox's own pages under `{prefix}/sandbox/`.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { InputError } from '../gateway/errors';
import { validateFields } from '../gateway/fields';
import { OPERATIONS, type OperationDef } from '../gateway/operations';
import { pagesBase, type Fields } from './answers';
import { verifyControl, verifyOAuth } from './auth';
import { CallbackDispatcher, DEFAULT_CALLBACK_SETTINGS, type CallbackSettings } from './callbacks';
import { SandboxClock } from './clock';
import { SandboxRefusal, refuse } from './codes';
import { openDb, Store, type TxRow } from './db';
import { Engine } from './engine';
import { runOperation } from './handlers';
import {
  MerchantRegistry,
  type Merchant,
  type MerchantInput,
  type ResponseFormat,
} from './merchants';
import { MisbehaviourSwitch, type Misbehaviour } from './misbehaviour';
import { acsPage, formPage, waitPage, type PageContext } from './pages';
import { widenExpireYear } from './readings';
import { chargeDueRecurring } from './recurring';
import { seedDemo } from './seed';
import { VisibilityDelay } from './visibility';
import { checkAccept, parseFormBody, readBody, sendFields, sendText, type Pairs } from './wire';

export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 (the default) lets the OS pick a free one. */
  port?: number;
  /** Path prefix of the base URL, like deployed gateways' `/paynet` (the default). */
  prefix?: string;
  merchants?: readonly MerchantInput[];
  /** SQLite file for the sandbox's state; in memory when absent. */
  database?: string;
  /** How long transactions stay `processing` before their final status (default 2000 ms). */
  delayMs?: number;
  /** When an approved sale or capture counts as settled and can no longer be voided (default 24 h). */
  settleAfterMs?: number;
  /** Answer format for merchants that do not choose one (default `json`). */
  responseFormat?: ResponseFormat;
  callbacks?: Partial<CallbackSettings>;
  misbehaviour?: Partial<Misbehaviour>;
  /** Creates believable orders for the first merchant on start. */
  seed?: 'demo';
  /** How often due work (final statuses, charges, callbacks) is looked for, in real ms (default 100). */
  tickMs?: number;
  /** Where unexpected faults are reported; they are answered with a 500 either way. */
  log?: (message: string) => void;
}

/** A read-only view of a recorded transaction, for tests and for main's first-run screens. */
export interface SandboxOrder {
  orderid: string;
  clientOrderId: string;
  endpointId: string;
  kind: TxRow['kind'];
  status: TxRow['status'];
  orderStage: string;
  amountMinor: bigint;
  currency: string;
  parentOrderId?: string;
  cardRefId?: string;
  pageToken?: string;
  callbacks: { url: string; attempts: number; state: string }[];
}

export interface Sandbox {
  /** Base URL for a profile: `http://127.0.0.1:{port}{prefix}`. */
  readonly baseUrl: string;
  readonly port: number;
  /** The movable business clock; moving it runs the work that became due. */
  readonly clock: SandboxClock;
  addMerchant(merchant: MerchantInput): Merchant;
  /** Replaces the merchant of that endpoint id (e.g. after a key rotation), or adds it. */
  replaceMerchant(merchant: MerchantInput): Merchant;
  merchants(): Merchant[];
  /** Changes the misbehaviour; `misbehave({})` makes the sandbox well-behaved again. */
  misbehave(misbehaviour: Partial<Misbehaviour>): void;
  /** Runs the work that is due now and waits for the callbacks it sends. */
  runDueWork(): Promise<void>;
  orders(endpointId?: string): SandboxOrder[];
  /**
   * Read-only: how many requests of an operation have arrived whole, before any latency, fault
   * or dropped answer: proof that a request left its sender (tests that kill a sender).
   */
  received(operation: OperationDef['name']): number;
  /** Read-only: the card references and subscriptions an endpoint has. */
  cardRefs(endpointId: string): { id: string; sourceOrderId?: string }[];
  subscriptions(
    endpointId: string,
  ): { id: string; clientOrderId: string; cardRefId: string; nextDueAt: number }[];
  close(): Promise<void>;
}

const API_ENDPOINT_ID = /^[1-9]\d{0,18}$/;

/**
 * A path of plain segments (letters, digits, `._~-`, none starting with a dot): no query, dot
 * segment or percent-escape for the URL parser to resolve, so it is its own pathname.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/**
 * The request target's path as the WHATWG URL parser reads it, or undefined when it cannot be
 * read. Every API request's target is a plain path, answered without building a URL object.
 */
function pathOf(target: string, origin: string): string | undefined {
  if (PLAIN_PATH.test(target)) return target;
  try {
    return new URL(target, origin).pathname;
  } catch {
    return undefined;
  }
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new RangeError(`The path prefix ${JSON.stringify(prefix)} must look like /paynet.`);
  }
  return trimmed;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const prefix = normalizePrefix(options.prefix ?? '/paynet');
  for (const name of ['delayMs', 'settleAfterMs', 'tickMs', 'port'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new RangeError(`${name} must be a whole number of 0 or more; got ${value}.`);
    }
  }
  const log = options.log ?? ((message: string) => console.error(message));
  const registry = new MerchantRegistry();
  for (const merchant of options.merchants ?? []) registry.add(merchant);
  const defaultFormat = options.responseFormat ?? 'json';

  const clock = new SandboxClock();
  const store = new Store(openDb(options.database ?? ':memory:'));
  const controlKeyOf = (endpointId: string) => registry.byEndpointId(endpointId)?.controlKey;
  const engine = new Engine(
    store,
    clock,
    { delayMs: options.delayMs ?? 2_000, settleAfterMs: options.settleAfterMs ?? 86_400_000 },
    // Called only once requests run, after the dispatcher below exists.
    (tx) => dispatcher.queue(tx),
  );
  const dispatcher = new CallbackDispatcher(engine, controlKeyOf, {
    ...DEFAULT_CALLBACK_SETTINGS,
    ...options.callbacks,
  });
  const misbehaviour = new MisbehaviourSwitch();
  misbehaviour.set(options.misbehaviour ?? {});
  const visibility = new VisibilityDelay();
  const received = new Map<string, number>();

  const byPath = new Map<string, OperationDef>(
    [...OPERATIONS.values()].map((def) => [def.path, def]),
  );

  /**
   * Final statuses and recurring charges whose time has come, synchronously, so an answer
   * never reports an order as it was before its due time. Costs nothing when nothing is due
   * (an in-memory check), which is every request but the few right after a due time: the
   * background tick below does the pass otherwise.
   */
  const settleOrders = (): void => {
    if (!store.mayHaveDueWork(clock.now())) return;
    engine.finalizeDue();
    if (chargeDueRecurring(engine) > 0) engine.finalizeDue();
    store.refreshDueHint();
  };
  /**
   * The whole due-work pass: orders as above, and due callbacks started and not awaited, so a
   * slow merchant endpoint never slows the gateway's answers. Run by the tick and on clock
   * moves, not per request.
   */
  const settleNow = (): void => {
    settleOrders();
    dispatcher
      .deliverDue()
      .catch((error: unknown) => log(`sandbox: callback delivery failed: ${String(error)}`));
  };
  let closed = false;
  const runDueWork = async (): Promise<void> => {
    if (closed) return;
    settleNow();
    await dispatcher.idle();
  };
  const background = (): void => {
    if (closed) return;
    try {
      settleNow();
    } catch (error) {
      log(`sandbox: due work failed: ${String(error)}`);
    }
  };

  if (options.seed === 'demo') {
    const first = registry.all()[0];
    if (!first) {
      store.db.close();
      throw new RangeError('--seed demo needs at least one merchant.');
    }
    seedDemo(engine, first.endpointId);
  }

  const formatFor = (merchant: Merchant | undefined): ResponseFormat =>
    merchant?.responseFormat ?? defaultFormat;

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    origin: string,
  ): Promise<void> {
    const slash = rest.lastIndexOf('/');
    const def = byPath.get(rest.slice(0, slash));
    const endpointId = rest.slice(slash + 1);
    if (!def || endpointId === '') {
      sendText(
        res,
        404,
        `No gateway operation at ${prefix}${rest}. Operations live at ${prefix}/api/<version>/<operation>/<endpointId>.`,
      );
      return;
    }
    if (req.method !== 'POST') {
      sendText(res, 405, `${def.name} is called with POST.`, { Allow: 'POST' });
      return;
    }
    // Known from the path before anything is checked, so every refusal (a wrong Accept header
    // included) comes in the merchant's own answer layout.
    const merchant: Merchant | undefined = API_ENDPOINT_ID.test(endpointId)
      ? registry.byEndpointId(endpointId)
      : undefined;
    try {
      // The body is read before any refusal, so the connection stays usable for the next request.
      const body = await readBody(req);
      received.set(def.name, (received.get(def.name) ?? 0) + 1);
      settleOrders();
      const latency = misbehaviour.latencyFor(def.name);
      if (latency > 0) await sleep(latency);
      if (misbehaviour.shouldFail(def.name)) {
        throw refuse(
          'INJECTED_FAULT',
          'The sandbox was told to fail this request (misbehaviour switch); nothing was recorded.',
        );
      }
      checkAccept(req.headers.accept);
      const pairs = parseFormBody(req.headers['content-type'], body);
      if (!API_ENDPOINT_ID.test(endpointId)) {
        throw refuse(
          'INVALID_FIELD',
          `The endpoint id ${JSON.stringify(endpointId)} in the path must be a whole number.`,
        );
      }
      if (!merchant)
        throw refuse(
          'UNKNOWN_MERCHANT',
          `Endpoint ${endpointId} is not a merchant endpoint of this gateway.`,
        );
      const fields = checkFields(def, pairs);
      if (def.auth.kind === 'control') {
        verifyControl({
          def,
          merchant,
          endpointId,
          fields,
          login: valueOf(pairs, 'login'),
          control: valueOf(pairs, 'control'),
          store,
        });
      } else {
        verifyOAuth({
          def,
          merchant,
          registry,
          store,
          url: `http://${req.headers.host ?? ''}${req.url ?? ''}`,
          bodyPairs: pairs,
          authorization: req.headers.authorization,
          nowSeconds: Math.floor(Date.now() / 1000),
        });
      }
      if (def.name === 'STATUS') visibility.checkStatus(endpointId, fields);
      const answer = runOperation(
        engine,
        { def, merchant, endpointId, fields, pages: pagesBase(origin, prefix) },
        { dedupe: !misbehaviour.noDedupe },
      );
      if (def.name !== 'STATUS')
        visibility.hide(endpointId, answer, misbehaviour.visibilityDelayFor(def.name));
      if (misbehaviour.shouldDrop(def.name)) {
        // The order is committed; the client never hears about it.
        res.socket?.destroy();
        return;
      }
      sendFields(res, 200, answer, formatFor(merchant));
    } catch (error) {
      sendRefusal(res, error, formatFor(merchant));
    }
  }

  function sendRefusal(res: ServerResponse, error: unknown, format: ResponseFormat): void {
    let refusal: SandboxRefusal;
    if (error instanceof SandboxRefusal) refusal = error;
    else {
      log(
        `sandbox: unexpected fault: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      refusal = refuse(
        'INTERNAL',
        'The sandbox met an unexpected fault; the request may not have been recorded.',
      );
    }
    const fields: Fields = {
      type: refusal.responseType,
      'error-message': refusal.message,
      'error-code': refusal.code,
    };
    if (!res.headersSent) sendFields(res, refusal.http, fields, format);
  }

  async function handlePage(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    origin: string,
  ): Promise<void> {
    const match = /^\/sandbox\/(form|acs|wait)\/([0-9a-f]{32})$/.exec(rest);
    const tx = match?.[2] ? store.byPageToken(match[2]) : undefined;
    if (!match || !tx) {
      sendText(
        res,
        404,
        'This sandbox page does not exist (the link is wrong or the sandbox was restarted).',
      );
      return;
    }
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendText(res, 405, 'Use GET or POST.', { Allow: 'GET, POST' });
      return;
    }
    settleOrders();
    const ctx: PageContext = { engine, pages: pagesBase(origin, prefix), controlKeyOf };
    const fresh = store.tx(tx.id) ?? tx;
    if (match[1] === 'form') await formPage(ctx, fresh, req, res);
    else if (match[1] === 'acs') await acsPage(ctx, fresh, req, res);
    else waitPage(ctx, fresh, res);
  }

  const server: Server = createServer((req, res) => {
    // Page addresses are built from the Host the client used, so they work under any loopback
    // name; a Host that is not a plain host[:port] is refused rather than echoed into pages.
    const host = req.headers.host ?? '';
    if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) {
      sendText(res, 400, 'The request has no usable Host header.');
      return;
    }
    const origin = `http://${host}`;
    const path = pathOf(req.url ?? '/', origin);
    if (path === undefined) {
      sendText(res, 400, 'The request path cannot be read.');
      return;
    }
    const rest = path.startsWith(prefix + '/') ? path.slice(prefix.length) : undefined;
    const route = rest?.startsWith('/api/')
      ? handleApi
      : rest?.startsWith('/sandbox/')
        ? handlePage
        : undefined;
    if (!route || rest === undefined) {
      sendText(
        res,
        404,
        `This is the Paydesk sandbox gateway; its base URL is ${origin}${prefix}.`,
      );
      return;
    }
    route(req, res, rest, origin).catch((error: unknown) => sendRefusal(res, error, defaultFormat));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      store.db.close();
      reject(error);
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const timer = setInterval(background, options.tickMs ?? 100);
  timer.unref();
  const stopListening = clock.onChange(background);

  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    port,
    clock,
    addMerchant: (merchant) => registry.add(merchant),
    replaceMerchant: (merchant) => registry.replace(merchant),
    merchants: () => registry.all(),
    misbehave: (next) => misbehaviour.set(next),
    received: (operation) => received.get(operation) ?? 0,
    runDueWork,
    cardRefs: (endpointId) =>
      store.listCardRefs(endpointId).map((r) => ({
        id: String(r.id),
        ...(r.source_tx_id !== null ? { sourceOrderId: String(r.source_tx_id) } : {}),
      })),
    subscriptions: (endpointId) =>
      store.listRecurring(endpointId).map((r) => ({
        id: String(r.id),
        clientOrderId: r.client_orderid,
        cardRefId: String(r.card_ref_id),
        nextDueAt: Number(r.next_due_at),
      })),
    orders: (endpointId) =>
      store.listTx(endpointId).map((tx) => ({
        orderid: String(tx.id),
        clientOrderId: tx.client_orderid,
        endpointId: tx.endpoint_id,
        kind: tx.kind,
        status: tx.status,
        orderStage: engine.orderStage(tx),
        amountMinor: tx.amount_minor,
        currency: tx.currency,
        ...(tx.parent_id !== null ? { parentOrderId: String(tx.parent_id) } : {}),
        ...((tx.card_ref_id ?? store.cardRefOfTx(tx.id)?.id)
          ? { cardRefId: String(tx.card_ref_id ?? store.cardRefOfTx(tx.id)?.id) }
          : {}),
        ...(tx.page_token ? { pageToken: tx.page_token } : {}),
        callbacks: store
          .callbacksOf(tx.id)
          .map((c) => ({ url: c.url, attempts: Number(c.attempts), state: c.state })),
      })),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      stopListening();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dispatcher.idle();
      store.db.close();
    },
  };
}

/** The value of the body's field `name` (each name comes once: parseFormBody refuses repeats). */
function valueOf(pairs: Pairs, name: string): string | undefined {
  for (const [n, value] of pairs) if (n === name) return value;
  return undefined;
}

/**
 * The client's own field rules (validateFields), on the body without the names the signature
 * adds (login, control, oauth_*). A missing field is error-code 1, a malformed one 2.
 */
function checkFields(def: OperationDef, pairs: Pairs): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of pairs) {
    if (name === 'login' || name === 'control' || name.startsWith('oauth_')) continue;
    fields[name] = value;
  }
  try {
    return validateFields(def, widenExpireYear(fields));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const missing = error.field !== undefined && !fields[error.field]?.trim();
    throw refuse(missing ? 'MISSING_FIELD' : 'INVALID_FIELD', error.message);
  }
}
