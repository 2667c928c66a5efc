// The sandbox's world: its merchants, clock, database, engine, callbacks and misbehaviour
// switch, and the due work that moves orders on (final statuses, recurring charges, callbacks).
// The HTTP server (server.ts) routes requests into it through the API (api-route.ts) and the
// hosted pages (page-route.ts); tests and the app reach it through the Sandbox handle.

import { CallbackDispatcher, DEFAULT_CALLBACK_SETTINGS, type CallbackSettings } from './callbacks';
import { SandboxClock } from './clock';
import { openDb, Store } from './db';
import { Engine } from './engine';
import {
  MerchantRegistry,
  type Merchant,
  type MerchantInput,
  type ResponseFormat,
} from './merchants';
import { MisbehaviourSwitch, type Misbehaviour } from './misbehaviour';
import { chargeDueRecurring } from './recurring';
import { RequestLog } from './request-log';
import { seedDemo } from './seed';
import { VisibilityDelay } from './visibility';

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
  /**
   * When the sandbox's state (its database, migrations and demo seed) is made: as it starts (the
   * default), or at its first use (a request, or the handle's first call), so that an app
   * starting it is ready without waiting for that (the app's embedded sandbox).
   */
  opens?: 'at-start' | 'when-used';
}

export type { SandboxRequest } from './request-log';

const REQUEST_LOG_LIMIT = 200_000;

export class SandboxWorld {
  readonly registry = new MerchantRegistry();
  readonly clock = new SandboxClock();
  readonly store: Store;
  readonly engine: Engine;
  readonly dispatcher: CallbackDispatcher;
  readonly misbehaviour = new MisbehaviourSwitch();
  readonly visibility = new VisibilityDelay();
  /** Requests that arrived whole, by operation, before any latency, fault or dropped answer. */
  readonly received = new Map<string, number>();
  /**
   * Every API request that arrived whole, oldest first, with the order it names: what a test
   * reads to prove which requests a client sent (reconciliation sends only `status`). The
   * newest REQUEST_LOG_LIMIT are kept.
   */
  readonly requestLog = new RequestLog(REQUEST_LOG_LIMIT);
  private readonly defaultFormat: ResponseFormat;
  private closed = false;

  constructor(
    options: SandboxOptions,
    readonly log: (message: string) => void,
  ) {
    for (const merchant of options.merchants ?? []) this.registry.add(merchant);
    this.defaultFormat = options.responseFormat ?? 'json';
    this.store = new Store(openDb(options.database ?? ':memory:'));
    this.engine = new Engine(
      this.store,
      this.clock,
      { delayMs: options.delayMs ?? 2_000, settleAfterMs: options.settleAfterMs ?? 86_400_000 },
      // Called only once requests run, after the dispatcher below exists.
      (tx) => this.dispatcher.queue(tx),
    );
    this.dispatcher = new CallbackDispatcher(this.engine, this.controlKeyOf, {
      ...DEFAULT_CALLBACK_SETTINGS,
      ...options.callbacks,
    });
    this.misbehaviour.set(options.misbehaviour ?? {});
    if (options.seed === 'demo') {
      const first = this.registry.all()[0];
      if (!first) {
        this.store.db.close();
        throw new RangeError('--seed demo needs at least one merchant.');
      }
      seedDemo(this.engine, first.endpointId);
    }
  }

  readonly controlKeyOf = (endpointId: string): string | undefined =>
    this.registry.byEndpointId(endpointId)?.controlKey;

  formatFor(merchant: Merchant | undefined): ResponseFormat {
    return merchant?.responseFormat ?? this.defaultFormat;
  }

  /**
   * Final statuses and recurring charges whose time has come, synchronously, so an answer
   * never reports an order as it was before its due time. Costs nothing when nothing is due
   * (an in-memory check), which is every request but the few right after a due time: the
   * background tick does the pass otherwise. The recurring plans are read only when one of
   * them may be due.
   */
  settleOrders(): void {
    const now = this.clock.now();
    if (!this.store.mayHaveDueWork(now)) return;
    const plans = this.store.recurringMayBeDue(now);
    this.engine.finalizeDue();
    if (plans && chargeDueRecurring(this.engine) > 0) this.engine.finalizeDue();
    if (plans) this.store.refreshDueHint();
    else this.store.refreshTransactionsDue();
  }

  /** Runs the work that is due now and waits for the callbacks it sends. */
  async runDueWork(): Promise<void> {
    if (this.closed) return;
    this.settleNow();
    await this.dispatcher.idle();
  }

  /** The tick's and the clock's pass: a fault is logged, never thrown into a timer. */
  readonly background = (): void => {
    if (this.closed) return;
    try {
      this.settleNow();
    } catch (error) {
      this.log(`sandbox: due work failed: ${String(error)}`);
    }
  };

  /**
   * Stops the due work at once, then `stopServing` (the server's own closing), then closes the
   * database once the callbacks under way have ended.
   */
  async close(stopServing: () => Promise<void>): Promise<void> {
    this.closed = true;
    await stopServing();
    await this.dispatcher.idle();
    this.store.db.close();
  }

  /** Counts and logs a request that arrived whole, before anything is checked. */
  noteRequest(operation: string, fields: URLSearchParams): void {
    this.received.set(operation, (this.received.get(operation) ?? 0) + 1);
    const orderid = fields.get('orderid');
    const clientOrderId = fields.get('client_orderid');
    this.requestLog.add({
      operation,
      ...(orderid !== null ? { orderid } : {}),
      ...(clientOrderId !== null ? { clientOrderId } : {}),
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * The whole due-work pass: orders as above, and due callbacks started and not awaited, so a
   * slow merchant endpoint never slows the gateway's answers. Run by the tick and on clock
   * moves, not per request.
   */
  private settleNow(): void {
    this.settleOrders();
    this.dispatcher
      .deliverDue()
      .catch((error: unknown) => this.log(`sandbox: callback delivery failed: ${String(error)}`));
  }
}
