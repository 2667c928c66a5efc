// Settling an entry whose request may have left, by the gateway's `status` and never by sending
// again. "No record" for such a request means "not yet": the entry stays unsettled (pending,
// counted in the figures) for a quarantine that outlasts the gateway's processing, and only then
// is it closed as not received, saying how long Paydesk waited. One step, askAndSettle, serves a
// clerk's retry (in-flight.ts resume) and the start's reconcile (reconcile.ts); the follow-up
// loop (follow-up.ts) uses the same pieces tick by tick.

import { localTimeWithOffset } from '../../../common/time';
import type { GatewayClient } from '../../gateway/client';
import { ValidationError } from '../../gateway/errors';
import { ONE_HOUR } from '../../gateway/poll';
import type { StatusResponse } from '../../gateway/response';
import type {
  EntryResult,
  GatewayAnswer,
  JournalEntry,
  JournalPort,
} from '../../store/journal/port';
import { quarantineEnd } from './decisions';
import { outcomeRule } from './outcomes';

/** How long an unsettled entry is asked about before "no record" is taken as "not received". */
export const DEFAULT_QUARANTINE_MS = ONE_HOUR;

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

/** The clerk's word for an entry's operation, for the sentences about it. */
export const wordOf = (entry: JournalEntry) =>
  WORD[entry.operation] ?? entry.operation.toLowerCase();

/** What one ask-and-settle step left the entry as. */
export type SettleResult =
  /** The gateway knew it: its status is recorded (final, or acknowledged and followed). */
  | { kind: 'adopted'; entry: JournalEntry }
  /** No record after the quarantine: closed as not received. */
  | { kind: 'closed'; entry: JournalEntry }
  /** No record yet: unsettled, and followed until the quarantine ends. */
  | { kind: 'unsettled'; entry: JournalEntry }
  /** The status could not be read now (a 500, a cut connection): followed, nothing sent. */
  | { kind: 'unreadable'; entry: JournalEntry; error: unknown };

export type Follow = (client: GatewayClient, entry: JournalEntry) => void;

export class Settler {
  constructor(
    private readonly journal: JournalPort,
    private readonly quarantineMs: number,
    private readonly changed: (entry: JournalEntry) => void,
    /** Starts the background follow-up of an entry (follow-up.ts); a no-op if one runs. */
    private readonly follow: Follow,
  ) {}

  /** When the quarantine of an entry ends: from when it may have left. */
  quarantineEnd(entry: JournalEntry): number {
    return quarantineEnd(entry, this.quarantineMs);
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
    const until = localTimeWithOffset(new Date(this.quarantineEnd(entry)).toISOString());
    return (
      `This ${wordOf(entry)} may have reached the gateway, which has no record of it yet. ` +
      `Paydesk keeps asking until ${until} and sends nothing again; until then the amount counts as pending.`
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
    const final = rule.finalOf(status);
    // An entry already acknowledged whose status is final goes straight to final: the
    // acknowledgement would repeat a state it is in (one commit per change of state). The final
    // answer carries the orderid and result an acknowledgement would add.
    let current =
      final && entry.state === 'acknowledged'
        ? entry
        : await this.journal.acknowledge(
            entry.clientOrderId,
            status.orderId,
            rule.seenResult?.(status),
          );
    if (final && current.state !== 'refused') {
      current = await this.journal.finish(entry.clientOrderId, finalAnswer(status, final));
    } else if (current.state === 'acknowledged') {
      this.follow(client, current);
    }
    this.changed(current);
    return current;
  }

  /** An unsettled entry whose quarantine is over, with still no record: not received. */
  async closeIfQuarantineOver(entry: JournalEntry, checks?: number): Promise<boolean> {
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

  /** An entry found sending with nobody sending it: it may have left, so it is unsettled. */
  async interrupted(entry: JournalEntry): Promise<JournalEntry> {
    if (entry.state !== 'sending') return entry;
    const unsettled = await this.journal.markUnknown(entry.clientOrderId, {
      code: 'INTERRUPTED',
      message: 'Paydesk stopped before the gateway answered; the request may have reached it.',
    });
    this.changed(unsettled);
    return unsettled;
  }

  /**
   * Asks `status` about an entry nobody is sending, and settles it by the answer: adopted when
   * the gateway knows it, closed as not received after the quarantine, otherwise unsettled and
   * followed. Never sends. `checks` is how many times it has been asked, for the closing words.
   */
  async askAndSettle(
    client: GatewayClient,
    entry: JournalEntry,
    checks?: number,
  ): Promise<SettleResult> {
    let found: StatusResponse | undefined;
    try {
      found = await this.statusOf(client, entry);
    } catch (error) {
      // That says nothing about the entry: its follow-up asks again on the cadence.
      const current = await this.interrupted(entry);
      this.follow(client, current);
      return { kind: 'unreadable', entry: current, error };
    }
    if (found) return { kind: 'adopted', entry: await this.adopt(client, entry, found) };
    const unsettled = await this.interrupted(entry);
    if (await this.closeIfQuarantineOver(unsettled, checks))
      return {
        kind: 'closed',
        entry: (await this.journal.get(entry.clientOrderId)) ?? unsettled,
      };
    this.follow(client, unsettled);
    return { kind: 'unsettled', entry: unsettled };
  }
}

/** The final answer a status gives the journal, `final` being what the outcome rule read of it. */
export function finalAnswer(
  status: StatusResponse,
  final: { status: string; result?: EntryResult },
): GatewayAnswer {
  return {
    status: final.status,
    ...(status.orderId ? { orderId: status.orderId } : {}),
    ...(status.errorMessage ? { errorMessage: status.errorMessage } : {}),
    ...(status.errorCode ? { errorCode: status.errorCode } : {}),
    ...(final.result ? { result: final.result } : {}),
  };
}

function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  return `${Math.round(seconds / 60)} min`;
}
