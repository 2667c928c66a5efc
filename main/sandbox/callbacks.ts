// Server callbacks: when a transaction reaches a final status, a GET to the order's
// server_callback_url with the parameters of gateway-notes.md and
// control = sha1(status + orderid + client_orderid + key). Anything but HTTP 200 is retried
// with growing delays on the sandbox clock, a bounded number of times (the real gateway tries
// 30 times over 14 days; a sandbox that is left running must not try forever).

import { outcomeParams } from './answers';
import type { TxRow } from './db';
import type { Engine } from './engine';

export interface CallbackSettings {
  /** Delay before each retry; the number of entries bounds the retries. */
  retryDelaysMs: readonly number[];
  /** How long one delivery may take before it counts as failed. */
  timeoutMs: number;
}

export const DEFAULT_CALLBACK_SETTINGS: CallbackSettings = {
  retryDelaysMs: [5_000, 30_000, 120_000, 600_000, 3_600_000],
  timeoutMs: 10_000,
};

export class CallbackDispatcher {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly engine: Engine,
    private readonly controlKeyOf: (endpointId: string) => string | undefined,
    private readonly settings: CallbackSettings,
  ) {}

  /** Queues the callback of a transaction that just became final, if its order asked for one. */
  queue(tx: TxRow): void {
    const url = tx.server_callback_url ?? this.engine.root(tx).server_callback_url;
    if (url) this.engine.store.queueCallback(tx.id, url, this.engine.now());
  }

  /** Starts every delivery that is due; the promise settles when they have all been tried once. */
  deliverDue(): Promise<void> {
    const { store } = this.engine;
    const started: Promise<void>[] = [];
    for (const row of store.dueCallbacks(this.engine.now())) {
      store.updateCallback(row.id, { state: 'sending' });
      const delivery = this.deliver(row.id, row.tx_id, row.url, Number(row.attempts)).finally(
        () => {
          this.inFlight.delete(delivery);
        },
      );
      this.inFlight.add(delivery);
      started.push(delivery);
    }
    return Promise.all(started).then(() => undefined);
  }

  /** Waits for deliveries already under way (used by close and by tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(
    id: bigint,
    txId: bigint,
    url: string,
    attemptsBefore: number,
  ): Promise<void> {
    const { store } = this.engine;
    const tx = store.tx(txId);
    const key = tx ? this.controlKeyOf(tx.endpoint_id) : undefined;
    if (!tx || key === undefined) {
      store.updateCallback(id, {
        state: 'failed',
        last_error: 'the merchant is no longer configured',
      });
      return;
    }
    let error: string | undefined;
    try {
      const target = new URL(url);
      for (const [name, value] of Object.entries(outcomeParams(tx, key)))
        target.searchParams.set(name, value);
      const response = await fetch(target, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      await response.arrayBuffer();
      if (response.status !== 200) error = `HTTP ${response.status}`;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const attempts = attemptsBefore + 1;
    if (error === undefined) {
      store.updateCallback(id, {
        state: 'delivered',
        attempts: BigInt(attempts),
        last_error: null,
      });
      return;
    }
    const delay = this.settings.retryDelaysMs[attempts - 1];
    store.updateCallback(
      id,
      delay === undefined
        ? { state: 'failed', attempts: BigInt(attempts), last_error: error }
        : {
            state: 'pending',
            attempts: BigInt(attempts),
            last_error: error,
            next_at: BigInt(this.engine.now() + delay),
          },
    );
  }
}
