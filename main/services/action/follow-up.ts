// Following an entry to its final status in the background, one follow-up per entry: `status`
// on the published cadence until the gateway's final word, never a second send. An entry the
// gateway has not shown yet is asked about at least once after its quarantine ends, and closed
// as not received only on the gateway's own "no record" then, never on a failed read. A store
// that is away (the team's server stopped, the file busy) changes nothing: the entry is asked
// about again at the next tick, and a store away for a whole window leaves it to a retry or the
// next start.

import type { GatewayClient } from '../../gateway/client';
import { abortableSleep, ONE_HOUR, publishedCadence, type WaitOptions } from '../../gateway/poll';
import type { StatusResponse } from '../../gateway/response';
import { toStoreError } from '../../store/errors';
import { IN_FLIGHT, type JournalEntry, type JournalPort } from '../../store/journal/port';
import { askAgainAfter, nextTick } from './decisions';
import { outcomeRule } from './outcomes';
import type { Settler } from './settle';

export type FollowWait = Omit<WaitOptions, 'signal' | 'onStep'>;

export class FollowUps {
  /** Running follow-ups, by client_orderid, so callers and tests can await them. */
  private readonly following = new Map<string, Promise<JournalEntry>>();
  /**
   * One abort controller per running follow-up, not one for all: a signal shared by more than
   * ten waiting follow-ups makes Node (Electron's) warn of a listener leak. close() aborts all.
   */
  private readonly stops = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly journal: JournalPort,
    private readonly settler: () => Settler,
    private readonly changed: (entry: JournalEntry) => void,
    private readonly wait: FollowWait = {},
  ) {}

  /**
   * Follows an entry to its final status in the background (one follow-up per entry). `first`:
   * its first `status`, already asked (in-flight.ts firstLook), taken in place of asking again.
   */
  follow(
    client: GatewayClient,
    entry: JournalEntry,
    first?: Promise<StatusResponse | undefined>,
  ): void {
    if (this.following.has(entry.clientOrderId) || this.closed) return;
    // An operation `status` cannot tell about has nothing to follow.
    if (!this.settler().askable(entry)) return;
    const stop = new AbortController();
    this.stops.add(stop);
    const done = this.followToEnd(client, entry, stop.signal, first)
      // Stopped, or refused by the gateway: the entry stays in flight; a retry or the next
      // start asks again.
      .catch(async () => (await this.journal.get(entry.clientOrderId).catch(() => entry)) ?? entry)
      .finally(() => {
        this.following.delete(entry.clientOrderId);
        this.stops.delete(stop);
      });
    this.following.set(entry.clientOrderId, done);
  }

  /** The entries being followed to their final status now. */
  followed(): string[] {
    return [...this.following.keys()];
  }

  /** The running follow-up of an entry, if there is one. */
  running(clientOrderId: string): Promise<JournalEntry> | undefined {
    return this.following.get(clientOrderId);
  }

  /** Stops every follow-up (the app is quitting); entries stay in flight for the next start. */
  close(): Promise<unknown> {
    this.closed = true;
    for (const stop of this.stops) stop.abort();
    return Promise.allSettled([...this.following.values()]);
  }

  private async followToEnd(
    client: GatewayClient,
    entry: JournalEntry,
    signal: AbortSignal,
    first: Promise<StatusResponse | undefined> | undefined,
  ): Promise<JournalEntry> {
    const { clientOrderId } = entry;
    const settler = this.settler();
    const now = this.wait.now ?? Date.now;
    const pause = this.wait.sleep ?? abortableSleep;
    const delayAfter = this.wait.delayAfter ?? publishedCadence;
    const windowMs = this.wait.giveUpAfterMs ?? ONE_HOUR;
    const started = now();
    /** Waits for the next tick after a store that was away; rethrows once a window has passed. */
    const storeAway = async (error: unknown, attempt: number) => {
      if (!toStoreError(error) || now() - started > windowMs) throw error;
      await pause(delayAfter(now() - started, attempt), signal);
    };
    let seenSince: number | undefined;
    let checks = 0;
    for (let attempt = 1; ; attempt++) {
      // The first ask starts from the entry as its caller just wrote or read it (not read back
      // again); the entry is read before anything is written by what `status` said.
      let current: JournalEntry | undefined = attempt === 1 ? entry : undefined;
      try {
        current ??= await this.journal.get(clientOrderId);
      } catch (error) {
        await storeAway(error, attempt);
        continue;
      }
      // Settled meanwhile (by a person, or by another process): stop asking.
      if (!current || !IN_FLIGHT.includes(current.state)) return current as JournalEntry;
      let found: StatusResponse | undefined;
      let answered = false;
      try {
        found = await (attempt === 1 && first ? first : settler.statusOf(client, current));
        answered = true;
        checks++;
      } catch (error) {
        if (!askAgainAfter(error)) throw error;
      }
      try {
        current = (await this.journal.get(clientOrderId)) ?? current;
        if (!IN_FLIGHT.includes(current.state)) return current;
        const rule = outcomeRule(current.operation);
        if (found && rule.finalOf(found)) return await settler.adopt(client, current, found);
        if (found && current.state !== 'acknowledged') {
          // Seen at the gateway, not final yet: it is no longer unsettled.
          current = await this.journal.acknowledge(
            clientOrderId,
            found.orderId,
            rule.seenResult?.(found),
          );
          this.changed(current);
        }
        if (answered && !found && (await settler.closeIfQuarantineOver(current, checks)))
          return (await this.journal.get(clientOrderId)) ?? current;
      } catch (error) {
        // The gateway's answer could not be written now: it is asked for again at the next tick.
        await storeAway(error, attempt);
        continue;
      }
      const acknowledged = current.state === 'acknowledged';
      if (acknowledged) seenSince ??= now();
      const tick = nextTick({
        acknowledged,
        now: now(),
        seenSince: seenSince ?? now(),
        quarantineEnd: settler.quarantineEnd(current),
        cadenceMs: delayAfter(now() - started, attempt),
        windowMs,
      });
      if (tick.stop) return current;
      await pause(tick.delayMs, signal);
    }
  }
}
