// The sandbox gateway's HTTP server (node:http on 127.0.0.1): checks each request's Host and
// path and hands it to the API (api-route.ts: every operation of the table under
// `{prefix}/api/...`) or to the sandbox's own pages (page-route.ts: under `{prefix}/sandbox/`),
// both working on the sandbox's world (world.ts). startSandbox returns the handle that tests and
// the app hold.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { OperationDef } from '../gateway/operations';
import { apiRoute, sendRefusal } from './api-route';
import type { SandboxClock } from './clock';
import type { TxRow } from './db';
import type { Merchant, MerchantInput, ResponseFormat } from './merchants';
import type { Misbehaviour } from './misbehaviour';
import { pageRoute } from './page-route';
import { sendText } from './wire';
import { SandboxWorld, type SandboxOptions, type SandboxRequest } from './world';

export type { SandboxOptions, SandboxRequest } from './world';

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

export interface OrderAlteration {
  /** The order's final status becomes declined (or error), with this reason. */
  status?: 'declined' | 'error';
  reason?: string;
  /** The order's amount becomes this, in minor units of its currency. */
  amountMinor?: bigint;
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
  /** Read-only: every API request that arrived whole, oldest first, and the order it names. */
  requests(): readonly SandboxRequest[];
  /**
   * Changes a recorded order as only the gateway's own staff could, behind the shop's back (for
   * reconciliation tests and training): a final status declined after approval, or an amount
   * altered. Refunds, voids and captures made elsewhere are made through the API itself, by any
   * client of the merchant. Throws RangeError for an order it does not hold.
   */
  alterOrder(orderid: string, change: OrderAlteration): SandboxOrder;
  /** Read-only: the card references and subscriptions an endpoint has. */
  cardRefs(endpointId: string): { id: string; sourceOrderId?: string }[];
  subscriptions(
    endpointId: string,
  ): { id: string; clientOrderId: string; cardRefId: string; nextDueAt: number }[];
  close(): Promise<void>;
}

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

/** A plain host[:port] or [IPv6][:port]: safe to echo into the pages' addresses. */
const USABLE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new RangeError(`The path prefix ${JSON.stringify(prefix)} must look like /paynet.`);
  }
  return trimmed;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const prefix = normalizePrefix(options.prefix ?? '/paynet');
  for (const name of ['delayMs', 'settleAfterMs', 'tickMs', 'port'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new RangeError(`${name} must be a whole number of 0 or more; got ${value}.`);
    }
  }
  if (options.seed === 'demo' && (options.merchants ?? []).length === 0)
    throw new RangeError('--seed demo needs at least one merchant.');
  const log = options.log ?? ((message: string) => console.error(message));
  const world = new LazyWorld(options, log);
  if (options.opens !== 'when-used') world.open();
  let route: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    try {
      route ??= router(world.open(), prefix, options.responseFormat ?? 'json');
    } catch (error) {
      // The state could not be made (its database): said on every request, never a crash.
      log(`sandbox: could not open its state: ${String(error)}`);
      sendText(res, 500, 'The sandbox could not open its database; see the log.');
      return;
    }
    route(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      world.closeUnopened();
      reject(error);
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return handleOf(world, `http://127.0.0.1:${port}${prefix}`, port, async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
}

/**
 * The sandbox's world, made at start or at first use (`opens`), with its due-work timer: the
 * timer runs only once there is a world to work on.
 */
class LazyWorld {
  private world: SandboxWorld | undefined;
  private stopTimers: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly options: SandboxOptions,
    private readonly log: (message: string) => void,
  ) {}

  open(): SandboxWorld {
    if (this.world) return this.world;
    if (this.closed) throw new Error('The sandbox is closed.');
    const world = new SandboxWorld(this.options, this.log);
    const timer = setInterval(world.background, this.options.tickMs ?? 100);
    timer.unref();
    const stopListening = world.clock.onChange(world.background);
    this.stopTimers = () => {
      clearInterval(timer);
      stopListening();
    };
    this.world = world;
    return world;
  }

  /** The server could not listen: a world made at start closes its database. */
  closeUnopened(): void {
    this.closed = true;
    this.world?.store.db.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(stopServing: () => Promise<void>): Promise<void> {
    this.closed = true;
    this.stopTimers?.();
    if (this.world) await this.world.close(stopServing);
    else await stopServing();
  }
}

/** Every request: its Host and path checked, then the API's or the pages' route. */
function router(
  world: SandboxWorld,
  prefix: string,
  defaultFormat: ResponseFormat,
): (req: IncomingMessage, res: ServerResponse) => void {
  const api = apiRoute(world, prefix);
  const pages = pageRoute(world, prefix);
  // A client sends the same Host on every request: the last one accepted and its origin are
  // kept, so the check and the string are made once, not per request.
  let knownHost: string | undefined;
  let knownOrigin = '';
  return (req, res) => {
    // Page addresses are built from the Host the client used, so they work under any loopback
    // name; a Host that is not a plain host[:port] is refused rather than echoed into pages.
    const host = req.headers.host ?? '';
    if (host !== knownHost) {
      if (!USABLE_HOST.test(host)) {
        sendText(res, 400, 'The request has no usable Host header.');
        return;
      }
      knownHost = host;
      knownOrigin = `http://${host}`;
    }
    const origin = knownOrigin;
    const path = pathOf(req.url ?? '/', origin);
    if (path === undefined) {
      sendText(res, 400, 'The request path cannot be read.');
      return;
    }
    const rest = path.startsWith(prefix + '/') ? path.slice(prefix.length) : undefined;
    const route = rest?.startsWith('/api/')
      ? api
      : rest?.startsWith('/sandbox/')
        ? pages
        : undefined;
    if (!route || rest === undefined) {
      sendText(
        res,
        404,
        `This is the Paydesk sandbox gateway; its base URL is ${origin}${prefix}.`,
      );
      return;
    }
    // The API answers from the body's own callback (no promise); the pages are async.
    route(req, res, rest, origin)?.catch((error: unknown) =>
      sendRefusal(world.log, res, error, defaultFormat),
    );
  };
}

/** The handle tests and the app hold: the world's read-only views and its switches. */
function handleOf(
  lazy: LazyWorld,
  baseUrl: string,
  port: number,
  stopServing: () => Promise<void>,
): Sandbox {
  const world = () => lazy.open();
  return {
    baseUrl,
    port,
    get clock() {
      return world().clock;
    },
    addMerchant: (merchant) => world().registry.add(merchant),
    replaceMerchant: (merchant) => world().registry.replace(merchant),
    merchants: () => world().registry.all(),
    misbehave: (next) => world().misbehaviour.set(next),
    received: (operation) => world().received.get(operation) ?? 0,
    requests: () => world().requestLog.list(),
    runDueWork: () => world().runDueWork(),
    cardRefs: (endpointId) =>
      world()
        .store.listCardRefs(endpointId)
        .map((r) => ({
          id: String(r.id),
          ...(r.source_tx_id !== null ? { sourceOrderId: String(r.source_tx_id) } : {}),
        })),
    subscriptions: (endpointId) =>
      world()
        .store.listRecurring(endpointId)
        .map((r) => ({
          id: String(r.id),
          clientOrderId: r.client_orderid,
          cardRefId: String(r.card_ref_id),
          nextDueAt: Number(r.next_due_at),
        })),
    alterOrder(orderid, change) {
      const { store } = world();
      const tx = /^\d+$/.test(orderid) ? store.tx(BigInt(orderid)) : undefined;
      if (!tx) throw new RangeError(`The sandbox holds no order ${orderid}.`);
      if (change.amountMinor !== undefined && change.amountMinor <= 0n)
        throw new RangeError("An order's amount stays above zero.");
      store.updateTx(tx.id, {
        ...(change.status
          ? {
              status: change.status,
              decline_code: change.status === 'declined' ? '05' : '99',
              decline_reason: change.reason ?? 'Declined by the issuer after approval',
            }
          : {}),
        ...(change.amountMinor !== undefined ? { amount_minor: change.amountMinor } : {}),
      });
      return orderView(store.tx(tx.id) as TxRow);
    },
    orders: (endpointId) => world().store.listTx(endpointId).map(orderView),
    async close() {
      if (lazy.isClosed) return;
      await lazy.close(stopServing);
    },
  };

  function orderView(tx: TxRow): SandboxOrder {
    const { store, engine } = world();
    return {
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
    };
  }
}
