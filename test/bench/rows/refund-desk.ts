// A desk for the refunds rows (2 and 3): the app's services on a data folder of their own, with
// the embedded sandbox (delay 0), a bare client on that sandbox that makes the approved sales
// every refund takes one of, and refunds through the services at a given width. Rows start one
// desk as the app is, and may start a second one whose journal lacks some of its indexes, to
// measure what those indexes cost a refund.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GatewayClient } from '../../../main/gateway/client';
import { MemorySecretStore, type SecretStore } from '../../../main/secrets';
import { PaydeskServices } from '../../../main/services/app';
import { TEST_CARD } from '../../support/samples';
import { now } from '../lib/stats';

const WIDTH = 16;
export const REFUND = { amount: '1.00', currency: 'EUR', comment: 'Damaged' };
/** How long a run takes new items, by default (a loaded machine makes runs slower, not longer). */
export const RUN_MS = 2_500;

/**
 * Takes up to `count` items off `source` and runs `task` on them, at most `width` at a time,
 * taking no new item after `maxMs`; returns items done per second. Items not taken stay.
 */
export async function rate<T>(
  source: T[],
  count: number,
  width: number,
  task: (item: T) => Promise<unknown>,
  maxMs = RUN_MS,
) {
  let taken = 0;
  const start = now();
  const worker = async () => {
    while (taken < count && source.length > 0 && now() - start < maxMs) {
      taken++;
      await task(source.shift() as T);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  if (taken === 0) throw new Error('nothing was taken: the source was empty');
  return taken / ((now() - start) / 1000);
}

export class RefundDesk {
  /** Approved sales not refunded yet: every refund takes its own. */
  readonly pool: string[] = [];
  private serial = 0;

  private constructor(
    readonly dataDir: string,
    readonly services: PaydeskServices,
    readonly profileId: string,
    /** A client of the same sandbox that neither journals nor checks: sales, the references. */
    readonly bare: GatewayClient,
  ) {}

  /**
   * The services on a new data folder, with their sandbox running; `close` removes it all.
   * Their secrets in memory, or in `secrets` (the OS keychain, for the keychain's line).
   */
  static async start(secrets: SecretStore = new MemorySecretStore()): Promise<RefundDesk> {
    const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bench-refunds-'));
    const services = await PaydeskServices.start({
      dataDir,
      secrets,
      operator: 'bench',
      sandboxDelayMs: 0,
      // The app's first automatic backup starts 15 s after start, inside the timed runs: its
      // copy of the database and the check's worker thread would slow whichever run it meets.
      backups: 'off',
    });
    try {
      const sandbox = services.report.sandbox;
      if (!sandbox.running)
        throw new Error(`the embedded sandbox did not start: ${sandbox.message}`);
      const profile = await services.profiles.get(sandbox.profileId);
      const controlKey = await secrets.get(sandbox.profileId, 'control-key');
      if (!profile || !controlKey) throw new Error('the sandbox profile is incomplete');
      const bare = new GatewayClient({
        baseUrl: sandbox.baseUrl,
        endpointId: profile.endpointId,
        login: profile.login,
        controlKey,
      });
      return new RefundDesk(dataDir, services, sandbox.profileId, bare);
    } catch (error) {
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A client_orderid of this desk's bare client, never used before. */
  nextId(prefix: string): string {
    return `${prefix}-${++this.serial}`;
  }

  /** Makes sure a run of `count` refunds finds an approved sale for each (untimed). */
  async fill(count: number): Promise<void> {
    if (this.pool.length < count) this.pool.push(...(await this.sales(count - this.pool.length)));
  }

  private async sales(count: number): Promise<string[]> {
    const ids: string[] = [];
    await rate(
      Array.from({ length: count }),
      count,
      WIDTH,
      async () => {
        const ack = await this.bare.call('SALE', {
          client_orderid: this.nextId('bench-sale'),
          amount: '10.00',
          currency: 'EUR',
          email: 'john@example.com',
          ipaddress: '203.0.113.7',
          order_desc: 'Order',
          ...TEST_CARD,
        });
        ids.push(ack.orderId ?? '');
      },
      // Bounded by the count, never by time: a loaded machine makes them slower, not fewer.
      Number.POSITIVE_INFINITY,
    );
    // The next request runs the sandbox's due work: with delay 0 every sale is approved.
    await this.bare.status({ orderid: ids[0] ?? '' });
    return ids;
  }

  /**
   * Refunds per second through the order service (status, rules, journal, return, follow-up),
   * `width` at a time, each of its own approved sale (made first, untimed).
   */
  async viaServices(count: number, width: number, maxMs = RUN_MS): Promise<number> {
    await this.fill(count);
    const opened: string[] = [];
    const perSecond = await rate(
      this.pool,
      count,
      width,
      async (orderid) => {
        const { clientOrderId } = this.services.orders.openAction();
        opened.push(clientOrderId);
        await this.services.orders.refund({
          profileId: this.profileId,
          orderid,
          clientOrderId,
          amount: REFUND.amount,
          reason: REFUND.comment,
        });
      },
      maxMs,
    );
    // Untimed: let the background follow-ups end so they do not land in the next run.
    await Promise.race([
      Promise.all(opened.map((id) => this.services.orders.settled(id))),
      new Promise((resolve) => setTimeout(resolve, 10_000)),
    ]);
    return perSecond;
  }

  async close(): Promise<void> {
    try {
      await this.services.close();
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}
