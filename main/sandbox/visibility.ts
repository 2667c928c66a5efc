// A busy gateway's lag: a transaction it has recorded shows in `status` only a while later.
// With the `visibilityDelayMs` switch on, each transaction a request records is hidden from
// `status` (by its orderid, and by its client_orderid while it is the latest one carrying it)
// until the delay has passed; `status` answers as for an order that does not exist.

import type { Fields } from './answers';
import { refuse } from './codes';

export class VisibilityDelay {
  /** Real-time milliseconds until which an orderid, or an endpoint's client_orderid, is hidden. */
  private readonly hiddenUntil = new Map<string, number>();

  /** Hides the transaction an answer names (its paynet-order-id and merchant-order-id). */
  hide(endpointId: string, answer: Fields, delayMs: number, now = Date.now()): void {
    if (delayMs <= 0) return;
    const orderid = answer['paynet-order-id'];
    const coid = answer['merchant-order-id'];
    if (orderid) this.hiddenUntil.set(`${endpointId}#o#${orderid}`, now + delayMs);
    if (coid) this.hiddenUntil.set(`${endpointId}#c#${coid}`, now + delayMs);
  }

  /** Refuses a `status` request about a transaction that is still hidden. */
  checkStatus(
    endpointId: string,
    fields: Readonly<Record<string, string>>,
    now = Date.now(),
  ): void {
    if (this.hiddenUntil.size === 0) return; // nothing hidden: no keys to build
    for (const [kind, value] of [
      ['o', fields.orderid],
      ['c', fields.client_orderid],
    ] as const) {
      if (value === undefined) continue;
      const key = `${endpointId}#${kind}#${value}`;
      const until = this.hiddenUntil.get(key);
      if (until === undefined) continue;
      if (until <= now) {
        this.hiddenUntil.delete(key);
        continue;
      }
      throw refuse(
        'NOT_FOUND',
        kind === 'o'
          ? `No order with orderid ${value} exists for endpoint ${endpointId}.`
          : `No order with client_orderid ${value} exists for endpoint ${endpointId}.`,
      );
    }
  }
}
