// The fate of every request that may have left: sent once, its answer recorded (retrying the
// journal write if the disk is full), followed to its final status, and never sent again while
// its fate is unknown. "No record" from `status` for a request that may have reached the
// gateway means "not yet": the entry stays unsettled (pending, counted in the figures) and is
// asked about again on a backoff for a quarantine that outlasts the gateway's processing; only
// then is it closed as not received, saying how long Paydesk waited. Only a request that
// provably never left (no connection was made) is closed as not sent at once.
//
// The journal is a JournalPort (store/port.ts): the desk's SQLite or a team's PostgreSQL. A
// store that fails after a request may have left (the server stopped, the disk full) never
// turns the entry into "not sent": the answer is written again later, the follow-up keeps
// asking at its next tick, and the next start reconciles what is still pending.

import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

import type { GatewayClient } from '../../gateway/client';
import {
  AuthError,
  GatewayError,
  InputError,
  provablyNotSent,
  TransportError,
  ValidationError,
} from '../../gateway/errors';
import { getOperation } from '../../gateway/operations';
import { abortableSleep, ONE_HOUR, publishedCadence, type WaitOptions } from '../../gateway/poll';
import type { PreparedRequest } from '../../gateway/request';
import type { GatewayResponse, StatusResponse } from '../../gateway/response';
import { toStoreError } from '../../store/errors';
import {
  IN_FLIGHT,
  JournalError,
  type JournalEntry,
  type JournalPort,
} from '../../store/journal/port';
import type { Connections } from '../connection';
import { ServiceError } from '../errors';
import { outcomeRule } from './outcomes';

/** How long an unsettled entry is asked about before "no record" is taken as "not received". */
export const DEFAULT_QUARANTINE_MS = ONE_HOUR;
/** How long a process may hold an entry it is sending (the 30 s timeout, with room to spare). */
export const DEFAULT_LEASE_MS = 2 * 60_000;

export interface InFlightOptions {
  operator: string;
  /** Options for following an order to its final status (tests pass a fast clock). */
  wait?: Omit<WaitOptions, 'signal' | 'onStep'>;
  /** The quarantine of an unsettled entry, from when it may have left (tests shorten it). */
  quarantineMs?: number;
  leaseMs?: number;
  /** Retries of a journal write after sending: the first `foreground` while the clerk waits. */
  recordRetry?: {
    foreground: number;
    background: number;
    firstDelayMs: number;
    maxDelayMs: number;
  };
  onEntryChanged?: (entry: JournalEntry) => void;
}

const DEFAULT_RECORD_RETRY = {
  foreground: 3,
  background: 12,
  firstDelayMs: 50,
  maxDelayMs: 30_000,
};

const WORD: Record<string, string> = {
  CAPTURE: 'capture',
  RETURN: 'refund',
  VOID: 'void',
  PAYOUT: 'payout',
  PAYOUT_V4_CHECK: 'payout check',
  PAYOUT_V4_PAY: 'payout',
  CARDREF: 'card reference',
  CARDREF_V4: 'card reference',
  REBILL: 'rebill',
  CREATE_RP_V4: 'subscription',
  SALEFORM: 'payment link',
  PREAUTHFORM: 'payment link',
};
const wordOf = (entry: JournalEntry) => WORD[entry.operation] ?? entry.operation.toLowerCase();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when the lease names a live process other than `owner` and has not run out. */
export function heldByAnother(entry: JournalEntry, owner: string, now: number): boolean {
  if (!entry.leaseOwner || entry.leaseOwner === owner || !entry.leaseUntil) return false;
  if (Date.parse(entry.leaseUntil) <= now) return false;
  // A lease of a process on this computer that no longer runs (killed) is void at once.
  const [host, pid] = entry.leaseOwner.split(':');
  if (host === hostname() && pid && /^\d+$/.test(pid)) {
    try {
      process.kill(Number(pid), 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    }
  }
  return true;
}

export class InFlight {
  /** This process's name in leases: host, pid, and a random part for each service instance. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** Background follow-ups, by client_orderid, so callers and tests can await them. */
  private readonly following = new Map<string, Promise<JournalEntry>>();
  /** Entries whose answer is being written to the journal again (the first write failed). */
  private readonly recording = new Map<string, Promise<void>>();
  /**
   * One abort controller per running follow-up, not one for all: a signal shared by more than
   * ten waiting follow-ups makes Node (Electron's) warn of a listener leak. close() aborts all.
   */
  private readonly followUps = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly journal: JournalPort,
    private readonly connections: Connections,
    private readonly options: InFlightOptions,
  ) {}

  private get quarantineMs(): number {
    return this.options.quarantineMs ?? DEFAULT_QUARANTINE_MS;
  }

  lease(): { owner: string; until: Date } {
    return {
      owner: this.owner,
      until: new Date(Date.now() + (this.options.leaseMs ?? DEFAULT_LEASE_MS)),
    };
  }

  /** When the quarantine of an entry ends: from when it may have left. */
  quarantineEnd(entry: JournalEntry): number {
    return Date.parse(entry.sentAt ?? entry.createdAt) + this.quarantineMs;
  }

  /**
   * Sends a journaled request once and records what became of it. The real cause of a
   * failure reaches the caller; once the request may have left, no message says it was not.
   */
  async send(
    client: GatewayClient,
    entry: JournalEntry,
    prepared: PreparedRequest,
  ): Promise<JournalEntry> {
    let ack: GatewayResponse | undefined;
    let failure: Error | undefined;
    try {
      ack = await client.sendPrepared(prepared, getOperation(entry.operation).response);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    const write = () => this.recordOutcome(entry.clientOrderId, ack, failure);
    const retry = { ...DEFAULT_RECORD_RETRY, ...this.options.recordRetry };
    let recorded: JournalEntry;
    try {
      recorded = await this.writeWithRetry(
        write,
        retry.foreground,
        retry.firstDelayMs,
        retry.maxDelayMs,
      );
    } catch (writeError) {
      if (writeError instanceof JournalError || provablyNotSent(failure))
        throw failure ?? writeError;
      // Sent, and the answer could not be written: keep the entry sending (pending), keep
      // trying in the background, and say exactly that.
      this.recordInBackground(client, entry, write, retry);
      throw new ServiceError(
        'NOT_RECORDED',
        `The ${wordOf(entry)} was sent to the gateway` +
          (ack ? `, which received it${ack.orderId ? ` (orderid ${ack.orderId})` : ''}` : '') +
          `; its answer could not be recorded yet (${(writeError as Error).message}). ` +
          'The order stays pending while Paydesk keeps trying to record it and asks the gateway for its status. Do not send it again.',
      );
    }
    this.changed(recorded);
    if (recorded.state === 'acknowledged' || recorded.state === 'unknown')
      this.follow(client, recorded);
    if (failure !== undefined) throw failure;
    return recorded;
  }

  /** The journal write for what sending gave: one of four outcomes. */
  private async recordOutcome(
    clientOrderId: string,
    ack: GatewayResponse | undefined,
    failure: unknown,
  ): Promise<JournalEntry> {
    if (ack) {
      const entry = await this.journal.get(clientOrderId);
      const outcome = outcomeRule(entry?.operation ?? '').fromAnswer(ack);
      if (outcome.final)
        return this.journal.finish(clientOrderId, {
          status: outcome.final,
          ...(outcome.orderId ? { orderId: outcome.orderId } : {}),
          ...(outcome.result ? { result: outcome.result } : {}),
        });
      return this.journal.acknowledge(clientOrderId, outcome.orderId, outcome.result);
    }
    if (failure instanceof ValidationError || failure instanceof AuthError) {
      return this.journal.refuse(clientOrderId, {
        code: failure instanceof ValidationError ? failure.gatewayCode : failure.code,
        message: failure.message,
      });
    }
    if (provablyNotSent(failure)) {
      return this.journal.refuse(clientOrderId, {
        code: 'NOT_SENT',
        message: (failure as Error).message,
      });
    }
    // Timeout, cut connection, 5xx, an unreadable or foreign answer: it may have arrived.
    return this.journal.markUnknown(clientOrderId, {
      code: failure instanceof GatewayError ? failure.code : 'UNKNOWN',
      message: failure instanceof Error ? failure.message : String(failure),
    });
  }

  private async writeWithRetry(
    write: () => Promise<JournalEntry>,
    attempts: number,
    firstDelayMs: number,
    maxDelayMs: number,
  ): Promise<JournalEntry> {
    let delay = firstDelayMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        // An illegal transition will not become legal by waiting.
        if (error instanceof JournalError || attempt >= attempts || this.closed) throw error;
      }
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }

  private recordInBackground(
    client: GatewayClient,
    entry: JournalEntry,
    write: () => Promise<JournalEntry>,
    retry: typeof DEFAULT_RECORD_RETRY,
  ): void {
    const first = Math.min(retry.firstDelayMs * 2 ** retry.foreground, retry.maxDelayMs);
    const done = this.writeWithRetry(write, retry.background, first, retry.maxDelayMs)
      .then((recorded) => {
        this.changed(recorded);
        if (recorded.state === 'acknowledged' || recorded.state === 'unknown')
          this.follow(client, recorded);
      })
      // Still unwritable: the entry stays sending, and the next start reconciles it by status.
      .catch(() => undefined)
      .finally(() => this.recording.delete(entry.clientOrderId));
    this.recording.set(entry.clientOrderId, done);
  }

  /**
   * A retry of an action already in the journal. It never sends: it returns what is known,
   * waits for another process that is sending it, or asks `status` and adopts the answer.
   */
  async resume(existing: JournalEntry): Promise<{ entry: JournalEntry; replayed: true }> {
    for (;;) {
      const current = (await this.journal.get(existing.clientOrderId)) ?? existing;
      if (current.state === 'acknowledged') {
        // Seen at the gateway, final word owed: make sure someone asks (a follow-up may have
        // died with another process, or given up); asking twice is harmless.
        const { client } = await this.connections.clientFor(current.profileId);
        this.follow(client, current);
        return { entry: current, replayed: true };
      }
      if (current.state !== 'sending' && current.state !== 'unknown')
        return { entry: current, replayed: true };
      if (current.state === 'sending') {
        if (heldByAnother(current, this.owner, Date.now())) {
          // Another process is sending it right now: wait for its answer, never send.
          await sleep(50);
          continue;
        }
        if (this.recording.has(current.clientOrderId)) {
          throw new ServiceError(
            'NOT_RECORDED',
            `The ${wordOf(current)} was sent; its answer could not be recorded yet. The order stays pending while Paydesk keeps trying. Do not send it again.`,
          );
        }
      }
      const { client } = await this.connections.clientFor(current.profileId);
      let found: StatusResponse | undefined;
      try {
        found = await this.statusOf(client, current);
      } catch (error) {
        // The status could not be read now: the real cause goes to the clerk, and the
        // follow-up keeps asking; nothing is sent.
        this.follow(client, await this.interrupted(current));
        throw error;
      }
      if (found) return { entry: await this.adopt(client, current, found), replayed: true };
      const unsettled = await this.interrupted(current);
      if (await this.closeIfQuarantineOver(unsettled))
        return {
          entry: (await this.journal.get(current.clientOrderId)) ?? unsettled,
          replayed: true,
        };
      this.follow(client, unsettled);
      throw new ServiceError('UNSETTLED', this.unsettledMessage(unsettled));
    }
  }

  /** False for an operation the gateway's `status` cannot tell about (a subscription). */
  askable(entry: JournalEntry): boolean {
    return outcomeRule(entry.operation).statusRef(entry) !== undefined;
  }

  unsettledMessage(entry: JournalEntry): string {
    if (!this.askable(entry))
      return (
        `This ${wordOf(entry)} may have reached the gateway, and the gateway offers no way to ask about it. ` +
        'Paydesk sends nothing again. Ask the operator whether it exists, then settle the journal entry by hand with what they say.'
      );
    const until = new Date(this.quarantineEnd(entry)).toISOString().slice(11, 16);
    return (
      `This ${wordOf(entry)} may have reached the gateway, which has no record of it yet. ` +
      `Paydesk keeps asking until ${until} UTC and sends nothing again; until then the amount counts as pending.`
    );
  }

  /** The gateway's status of our own request, or undefined when it has no record of it (yet). */
  async statusOf(client: GatewayClient, entry: JournalEntry): Promise<StatusResponse | undefined> {
    const rule = outcomeRule(entry.operation);
    const ref = rule.statusRef(entry);
    if (!ref) return undefined;
    try {
      const found = await client.status(ref);
      // Found, but showing nothing of this request (a pay the payout has not seen): not yet.
      return rule.received(found) ? found : undefined;
    } catch (error) {
      if (error instanceof ValidationError) return undefined;
      throw error;
    }
  }

  /** Records the gateway's status of an entry: acknowledged, then final when it is. */
  async adopt(
    client: GatewayClient,
    entry: JournalEntry,
    status: StatusResponse,
  ): Promise<JournalEntry> {
    const rule = outcomeRule(entry.operation);
    let current = await this.journal.acknowledge(
      entry.clientOrderId,
      status.orderId,
      rule.seenResult?.(status),
    );
    const final = rule.finalOf(status);
    if (final && current.state !== 'refused') {
      current = await this.journal.finish(entry.clientOrderId, {
        status: final.status,
        ...(status.orderId ? { orderId: status.orderId } : {}),
        ...(status.errorMessage ? { errorMessage: status.errorMessage } : {}),
        ...(status.errorCode ? { errorCode: status.errorCode } : {}),
        ...(final.result ? { result: final.result } : {}),
      });
    } else if (current.state === 'acknowledged') {
      this.follow(client, current);
    }
    this.changed(current);
    return current;
  }

  /** An unsettled entry whose quarantine is over, with still no record: not received. */
  private async closeIfQuarantineOver(entry: JournalEntry, checks?: number): Promise<boolean> {
    if (entry.state !== 'unknown' && entry.state !== 'sending') return false;
    // Nobody can learn it from the gateway: only a person may say it was not received.
    if (!this.askable(entry)) return false;
    const now = Date.now();
    if (now < this.quarantineEnd(entry)) return false;
    const waited = now - Date.parse(entry.sentAt ?? entry.createdAt);
    const closed = await this.journal.refuse(entry.clientOrderId, {
      code: 'NOT_RECEIVED',
      message:
        `The gateway still had no record of this request after Paydesk waited ${describeDuration(waited)}` +
        `${checks ? ` and asked ${checks} times` : ''}: it was not received. Open the action again to retry.`,
    });
    this.changed(closed);
    return true;
  }

  /** Follows an entry to its final status in the background (one follow-up per entry). */
  follow(client: GatewayClient, entry: JournalEntry): void {
    if (this.following.has(entry.clientOrderId) || this.closed) return;
    // An operation `status` cannot tell about has nothing to follow.
    if (!this.askable(entry)) return;
    const stop = new AbortController();
    this.followUps.add(stop);
    const done = this.followToEnd(client, entry.clientOrderId, stop.signal)
      // Stopped, or refused by the gateway: the entry stays in flight; a retry or the next
      // start asks again.
      .catch(async () => (await this.journal.get(entry.clientOrderId).catch(() => entry)) ?? entry)
      .finally(() => {
        this.following.delete(entry.clientOrderId);
        this.followUps.delete(stop);
      });
    this.following.set(entry.clientOrderId, done);
  }

  /**
   * Asks `status` with the published cadence until the entry is final. An entry the gateway
   * has not shown yet is asked about at least once after its quarantine ends, and closed as not
   * received only on the gateway's own "no record" then, never on a failed read. An entry the
   * gateway has shown is followed for the usual window from when it was first seen.
   */
  private async followToEnd(
    client: GatewayClient,
    clientOrderId: string,
    signal: AbortSignal,
  ): Promise<JournalEntry> {
    const wait = this.options.wait ?? {};
    const now = wait.now ?? Date.now;
    const pause = wait.sleep ?? abortableSleep;
    const delayAfter = wait.delayAfter ?? publishedCadence;
    const windowMs = wait.giveUpAfterMs ?? ONE_HOUR;
    const started = now();
    let seenSince: number | undefined;
    let checks = 0;
    for (let attempt = 1; ; attempt++) {
      let current: JournalEntry | undefined;
      try {
        current = await this.journal.get(clientOrderId);
      } catch (error) {
        // The store is away (the team's server stopped, the file busy): nothing is sent, the
        // entry stays as it is, and it is asked about again at the next tick; a store away for
        // a whole window leaves it to a retry or the next start.
        if (!toStoreError(error) || now() - started > windowMs) throw error;
        await pause(delayAfter(now() - started, attempt), signal);
        continue;
      }
      // Settled meanwhile (by a person, or by another process): stop asking.
      if (!current || !IN_FLIGHT.includes(current.state)) return current as JournalEntry;
      let found: StatusResponse | undefined;
      let answered = false;
      try {
        found = await this.statusOf(client, current);
        answered = true;
        checks++;
      } catch (error) {
        // A refused status request will be refused again; any other failure says nothing
        // about the entry: ask again at the next tick.
        if (
          !(error instanceof GatewayError) ||
          error instanceof AuthError ||
          error instanceof InputError
        )
          throw error;
        if (error instanceof TransportError && error.code === 'ABORTED') throw error;
      }
      try {
        current = (await this.journal.get(clientOrderId)) ?? current;
        if (!IN_FLIGHT.includes(current.state)) return current;
        const rule = outcomeRule(current.operation);
        if (found && rule.finalOf(found)) return await this.adopt(client, current, found);
        if (found && current.state !== 'acknowledged') {
          // Seen at the gateway, not final yet: it is no longer unsettled.
          current = await this.journal.acknowledge(
            clientOrderId,
            found.orderId,
            rule.seenResult?.(found),
          );
          this.changed(current);
        }
        if (answered && !found && (await this.closeIfQuarantineOver(current, checks)))
          return (await this.journal.get(clientOrderId)) ?? current;
      } catch (error) {
        // The gateway's answer could not be written now: it is asked for again at the next tick.
        if (!toStoreError(error) || now() - started > windowMs) throw error;
        await pause(delayAfter(now() - started, attempt), signal);
        continue;
      }
      let next = delayAfter(now() - started, attempt);
      if (current.state === 'acknowledged') {
        seenSince ??= now();
        // Processing for longer than the window: it stays pending; a retry or a start asks again.
        if (now() - seenSince + next > windowMs) return current;
      } else {
        const untilEnd = this.quarantineEnd(current) - now();
        // Never give up before the quarantine ends: ask again at the latest when it does.
        if (untilEnd > 0) next = Math.min(next, untilEnd);
        // The gateway unreadable for a whole window after it: the next start asks again.
        else if (-untilEnd + next > windowMs) return current;
      }
      await pause(next, signal);
    }
  }

  /** Resolves when the entry's background work has ended (its final status, or given up). */
  async settled(clientOrderId: string): Promise<JournalEntry | undefined> {
    await this.recording.get(clientOrderId);
    return this.following.get(clientOrderId) ?? this.journal.get(clientOrderId);
  }

  /**
   * At start: every entry whose final word is owed (sending, acknowledged, unsettled) is asked
   * about by `status`, never sent again. One the gateway has no record of yet stays unsettled
   * and is followed until its quarantine ends.
   */
  async reconcile(): Promise<JournalEntry[]> {
    const results: JournalEntry[] = [];
    for (const entry of await this.journal.inFlight()) {
      // Another running process is sending it: its answer is that process's to record.
      if (entry.state === 'sending' && heldByAnother(entry, this.owner, Date.now())) {
        results.push(entry);
        continue;
      }
      try {
        results.push(await this.reconcileOne(entry));
      } catch {
        // The journal could not be written now: the entry stays in flight for the next start.
        results.push(entry);
      }
    }
    return results;
  }

  /** Asks about one entry at start; never sends. */
  private async reconcileOne(entry: JournalEntry): Promise<JournalEntry> {
    let client: GatewayClient;
    try {
      ({ client } = await this.connections.clientFor(entry.profileId));
    } catch {
      // The keychain is unreachable now: the entry stays in flight for the next try.
      return entry;
    }
    let found: StatusResponse | undefined;
    try {
      found = await this.statusOf(client, entry);
    } catch {
      // The status could not be read now (a 500, a cut connection): that says nothing about
      // the entry. Its follow-up asks again on the cadence; it is never left unasked.
      const current = await this.interrupted(entry);
      this.follow(client, current);
      return current;
    }
    if (found) {
      return this.adopt(client, entry, found);
    }
    const unsettled = await this.interrupted(entry);
    if (!(await this.closeIfQuarantineOver(unsettled, 1))) this.follow(client, unsettled);
    return (await this.journal.get(entry.clientOrderId)) ?? unsettled;
  }

  /** An entry found sending with nobody sending it: it may have left, so it is unsettled. */
  private async interrupted(entry: JournalEntry): Promise<JournalEntry> {
    if (entry.state !== 'sending') return entry;
    const unsettled = await this.journal.markUnknown(entry.clientOrderId, {
      code: 'INTERRUPTED',
      message: 'Paydesk stopped before the gateway answered; the request may have reached it.',
    });
    this.changed(unsettled);
    return unsettled;
  }

  /** A person settles an entry Paydesk cannot settle, with a reason; it is in the journal. */
  async settleByHand(
    clientOrderId: string,
    outcome: 'approved' | 'not-received',
    reason: string,
  ): Promise<JournalEntry> {
    if (!reason.trim())
      throw new ServiceError('REASON', 'Say why you settle this entry by hand.', 'reason');
    const entry = await this.journal.get(clientOrderId);
    if (!entry)
      throw new ServiceError('NOT_ALLOWED', `No journal entry has the id ${clientOrderId}.`);
    if (!IN_FLIGHT.includes(entry.state))
      throw new ServiceError(
        'NOT_ALLOWED',
        `This entry is already ${entry.state}; only an entry still waiting for the gateway can be settled by hand.`,
      );
    if (entry.state === 'sending' && heldByAnother(entry, this.owner, Date.now()))
      throw new ServiceError(
        'UNSETTLED',
        'This entry is being sent right now; wait for its answer.',
      );
    const settled = await this.journal.settleByHand(clientOrderId, {
      outcome,
      reason,
      by: this.options.operator,
    });
    this.changed(settled);
    return settled;
  }

  private changed(entry: JournalEntry): void {
    this.options.onEntryChanged?.(entry);
  }

  /** Stops following orders (the app is quitting); entries stay in flight for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.followUps) stop.abort();
    await Promise.allSettled([...this.following.values(), ...this.recording.values()]);
  }
}

function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  return `${Math.round(seconds / 60)} min`;
}
