// The fate of every request that may have left: sent once, its answer recorded (retrying the
// journal write if the disk is full), followed to its final status (follow-up.ts), and never
// sent again while its fate is unknown: a retry asks `status` and settles by it (settle.ts), as
// the start's reconcile does (reconcile.ts). Only a request that provably never left (no
// connection was made) is closed as not sent at once.
//
// The journal is a JournalPort (store/journal/port.ts): the desk's SQLite or a team's
// PostgreSQL. A store that fails after a request may have left (the server stopped, the disk
// full) never turns the entry into "not sent": the answer is written again later, the follow-up
// keeps asking at its next tick, and the next start reconciles what is still pending.

import type { GatewayClient } from '../../gateway/client';
import { provablyNotSent } from '../../gateway/errors';
import { getOperation } from '../../gateway/operations';
import type { PreparedRequest } from '../../gateway/request';
import type { GatewayResponse, StatusResponse } from '../../gateway/response';
import {
  IN_FLIGHT,
  JournalError,
  type GatewayAnswer,
  type JournalEntry,
  type JournalPort,
} from '../../store/journal/port';
import type { Connections } from '../connection';
import { ServiceError } from '../errors';
import { moveAfterSend, type SendMove } from './decisions';
import { FollowUps, type FollowWait } from './follow-up';
import { DEFAULT_LEASE_MS, heldByAnother, leaseOwnerName } from './lease';
import { outcomeRule } from './outcomes';
import { reconcileInFlight } from './reconcile';
import { DEFAULT_QUARANTINE_MS, finalAnswer, Settler, wordOf } from './settle';

export interface InFlightOptions {
  operator: string;
  /** Options for following an order to its final status (tests pass a fast clock). */
  wait?: FollowWait;
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
  /** How long an acknowledgement waits for the first status before it is written alone. */
  firstLookMs?: number;
}

const DEFAULT_RECORD_RETRY = {
  foreground: 3,
  background: 12,
  firstDelayMs: 50,
  maxDelayMs: 30_000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`'s value, or undefined once `ms` have passed without it. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * How long the acknowledgement waits for the follow-up's first status (firstLook): a status
 * slower than this is left to the follow-up, and the acknowledgement is written without it.
 */
const FIRST_LOOK_MS = 1_000;

export class InFlight {
  /** This process's name in leases: host, pid, and a random part for each service instance. */
  readonly owner = leaseOwnerName();
  /** Entries whose answer is being written to the journal again (the first write failed). */
  private readonly recording = new Map<string, Promise<void>>();
  private readonly followUps: FollowUps;
  private readonly settler: Settler;
  private closed = false;

  constructor(
    private readonly journal: JournalPort,
    private readonly connections: Connections,
    private readonly options: InFlightOptions,
  ) {
    const changed = (entry: JournalEntry) => this.changed(entry);
    this.followUps = new FollowUps(journal, () => this.settler, changed, options.wait);
    this.settler = new Settler(
      journal,
      options.quarantineMs ?? DEFAULT_QUARANTINE_MS,
      changed,
      (client, entry) => this.followUps.follow(client, entry),
    );
  }

  lease(): { owner: string; until: Date } {
    return {
      owner: this.owner,
      until: new Date(Date.now() + (this.options.leaseMs ?? DEFAULT_LEASE_MS)),
    };
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
    const decided = moveAfterSend(entry.operation, ack, failure);
    const look = decided.move === 'acknowledge' ? await this.firstLook(client, entry, decided) : {};
    const write = () => this.recordOutcome(entry, decided, look.final);
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
      this.recordInBackground(client, entry, write, retry, look.status);
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
      this.followUps.follow(client, recorded, look.status);
    if (failure !== undefined) throw failure;
    return recorded;
  }

  /**
   * The follow-up's first `status`, asked as soon as the gateway acknowledged the request and
   * before the acknowledgement is written: when it is final already (and comes within
   * firstLookMs), the acknowledgement and the final answer are written in one commit
   * (docs/protocol.md, "What each commit promises"). Otherwise the acknowledgement is written
   * as it would have been, and the follow-up takes this same status as its first (`status`,
   * still pending or settled): the gateway is asked exactly what it was asked before. Until the
   * commit the entry stays `sending` under this process's lease; a crash meanwhile leaves it
   * for the next start, which asks `status` by its client_orderid and never sends it again.
   */
  private async firstLook(
    client: GatewayClient,
    entry: JournalEntry,
    decided: { orderId?: string | undefined },
  ): Promise<{ status?: Promise<StatusResponse | undefined>; final?: GatewayAnswer }> {
    // As the entry will be once acknowledged: the follow-up's first status asks by its orderid.
    const seen: JournalEntry = {
      ...entry,
      state: 'acknowledged',
      orderId: decided.orderId ?? entry.orderId,
    };
    if (this.closed || !this.settler.askable(seen)) return {};
    const status = this.settler.statusOf(client, seen);
    // Read here or by the follow-up: a failed status is the follow-up's to judge, never unhandled.
    const answered = status.then(
      (found) => ({ found }),
      () => undefined,
    );
    const early = await within(answered, this.options.firstLookMs ?? FIRST_LOOK_MS);
    const found = early?.found;
    const final = found && outcomeRule(entry.operation).finalOf(found);
    return found && final ? { final: finalAnswer(found, final) } : { status };
  }

  /**
   * The journal write for what sending gave: one of four moves (decisions.ts), or the
   * acknowledgement with the final answer its first status gave (firstLook).
   */
  private recordOutcome(
    entry: JournalEntry,
    decided: SendMove,
    final: GatewayAnswer | undefined,
  ): Promise<JournalEntry> {
    const id = entry.clientOrderId;
    switch (decided.move) {
      case 'finish':
        return this.journal.finish(id, decided.answer);
      case 'acknowledge':
        if (final)
          return this.journal.acknowledgeAndFinish(
            id,
            { orderId: decided.orderId, ...(decided.result ? { result: decided.result } : {}) },
            final,
          );
        return this.journal.acknowledge(id, decided.orderId, decided.result);
      case 'refuse':
        return this.journal.refuse(id, decided.problem);
      case 'markUnknown':
        return this.journal.markUnknown(id, decided.problem);
    }
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
    status: Promise<StatusResponse | undefined> | undefined,
  ): void {
    const first = Math.min(retry.firstDelayMs * 2 ** retry.foreground, retry.maxDelayMs);
    const done = this.writeWithRetry(write, retry.background, first, retry.maxDelayMs)
      .then((recorded) => {
        this.changed(recorded);
        if (recorded.state === 'acknowledged' || recorded.state === 'unknown')
          this.followUps.follow(client, recorded, status);
      })
      // Still unwritable: the entry stays sending, and the next start reconciles it by status.
      .catch(() => undefined)
      .finally(() => this.recording.delete(entry.clientOrderId));
    this.recording.set(entry.clientOrderId, done);
  }

  /**
   * A retry of an action already in the journal. It never sends: it returns what is known,
   * waits for another process that is sending it, or asks `status` and settles by the answer.
   */
  async resume(existing: JournalEntry): Promise<{ entry: JournalEntry; replayed: true }> {
    for (;;) {
      const current = (await this.journal.get(existing.clientOrderId)) ?? existing;
      if (current.state === 'acknowledged') {
        // Seen at the gateway, final word owed: make sure someone asks (a follow-up may have
        // died with another process, or given up); asking twice is harmless.
        const { client } = await this.connections.clientFor(current.profileId);
        this.followUps.follow(client, current);
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
      const settled = await this.settler.askAndSettle(client, current);
      // The status could not be read now: the real cause goes to the clerk; nothing is sent.
      if (settled.kind === 'unreadable') throw settled.error;
      if (settled.kind === 'unsettled')
        throw new ServiceError('UNSETTLED', this.settler.unsettledMessage(settled.entry));
      return { entry: settled.entry, replayed: true };
    }
  }

  /** Resolves when the entry's background work has ended (its final status, or given up). */
  async settled(clientOrderId: string): Promise<JournalEntry | undefined> {
    await this.recording.get(clientOrderId);
    return this.followUps.running(clientOrderId) ?? this.journal.get(clientOrderId);
  }

  /** Entries this process is following to their final status, or still recording. */
  busy(): string[] {
    return [...new Set([...this.followUps.followed(), ...this.recording.keys()])];
  }

  /** At start: asks `status` about every entry whose final word is owed; never sends. */
  reconcile(): Promise<JournalEntry[]> {
    return reconcileInFlight(this.journal, this.connections, this.settler, this.owner);
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
    await Promise.allSettled([this.followUps.close(), ...this.recording.values()]);
  }
}
