// The one path every operation that moves money or registers something takes: capture, void,
// refund, payouts, card references, rebills, subscriptions, payment links.
//
// - The caller got an action id (a fresh client_orderid) when the action was opened, and sends
//   the same one on every retry. One action id, one request, ever: calls with the same id run
//   one after another in this process, and a second process waits for the lease of the first.
// - The journal is a JournalPort (store/port.ts): the desk's SQLite or a team's PostgreSQL; this
//   path does not know which. An action on an existing order takes the order (port.claim: one
//   IMMEDIATE transaction on SQLite, the order's advisory lock on PostgreSQL) for its rules and
//   its write-ahead, so two windows, processes or desks cannot both pass a rule that only one
//   of them may pass; a desk finding the order held is told who holds it (StoreError BUSY).
//   Actions not on an existing order (payouts, rebills, subscriptions, links) only begin.
// - Before anything is asked of the gateway for an action: port.requireWritable. A store that
//   cannot journal (read-only file, a support login, the server away) sends nothing.
// - The request is built and signed before its entry is written (a request that cannot be
//   built leaves no entry), and the entry is written before the request leaves.
// - A retry never sends: it returns what is known, or asks `status` (in-flight.ts).
// - Every answer is recorded; card numbers are masked in the journal (store/redact.ts) and the
//   result of a call is the journal entry, which holds nothing else.

import { randomBytes } from 'node:crypto';

import type { GatewayClient } from '../../gateway/client';
import type { RequestOperation } from '../../gateway/operations';
import type { JournalAction } from '../../../common/journal-actions';
import type { PreparedRequest } from '../../gateway/request';
import {
  JournalError,
  type ClaimResult,
  type JournalEntry,
  type JournalPort,
  type NewJournalEntry,
} from '../../store/journal/port';
import type { Profile } from '../../store/profiles/profile';
import type { Connections } from '../connection';
import { AuthError, provablyNotSent, ValidationError } from '../../gateway/errors';
import { markDelivery, markNothingSent, ServiceError } from '../errors';
import { InFlight, type InFlightOptions } from './in-flight';
import { ACTION_OF_OPERATION } from './journal-action';

export interface ActionPathOptions extends InFlightOptions {
  /**
   * Makes each new action id. Only the screenshots pass one (ids that are the same on every
   * run, so a second run changes no picture); the app's ids are time and randomness.
   */
  newActionId?: () => string;
}

/** What an action sends and what its journal entry says about it. */
export interface ActionPlan {
  operation: RequestOperation;
  fields: Record<string, string>;
  targetOrderId?: string;
  amountMinor?: bigint;
  currency?: string;
  reason?: string;
  note?: string;
  email?: string;
  /** What the clerk did, in the journal's words (journal-action.ts); absent: the operation. */
  action?: JournalAction;
  /** The target order's shop id (its client_orderid), so a search by it finds the entry. */
  targetClientOrderId?: string;
  /** The order showed captures or refunds made outside Paydesk when this was decided. */
  changedElsewhere?: boolean;
  /** The last four digits of the order's card, from the status read before acting. */
  cardLastFour?: string;
}

export interface ActionCall<Before> {
  /** What the action does, for a refusal: "send a refund". */
  what?: string;
  profileId: string;
  /** From openAction(); the same one on every retry of this action. */
  clientOrderId: string;
  /** Read before the claim, outside the transaction: the order's status, say. */
  before?: (client: GatewayClient, profile: Profile) => Promise<Before>;
  /**
   * The existing order the action acts on, held (port.claim) while `plan` decides and the entry
   * is written; with the verb a desk finding it held is told ("refunding"). Absent: the action
   * creates something new (a payout, a rebill) and its entry is simply begun.
   */
  order?: (before: Before) => { orderId: string; doing: string } | undefined;
  /**
   * While the order is held: the rules (throw a ServiceError to refuse, nothing is written) and
   * the plan of what to send. `entriesOfOrder` is every entry acting on the held order, every
   * desk's, pending ones included (empty without `order`). Synchronous: nothing slow happens
   * while the order is held.
   */
  plan: (before: Before, entriesOfOrder: readonly JournalEntry[]) => ActionPlan;
  /** For a retry with an id already in the journal: why it is not the same action, if it is not. */
  mismatch?: (existing: JournalEntry) => string | undefined;
}

export interface ActionResult {
  entry: JournalEntry;
  /** True when this call sent nothing because the action was already recorded. */
  replayed: boolean;
}

const ACTION_ID = /^pd-[a-z0-9-]{6,64}$/;

/** An action written ahead and ready to send, or an action id already in the journal. */
type Begun =
  | { client: GatewayClient; entry: JournalEntry; decided: PreparedRequest }
  | { resume: JournalEntry };

export class ActionPath {
  readonly inFlight: InFlight;
  /** The tail of the calls made with each action id: the next one waits for it. */
  private readonly byActionId = new Map<string, Promise<unknown>>();
  /**
   * Requests this process signed and tried to write ahead, when the write's outcome is not
   * known (the store's answer was lost, so the clerk was told nothing was sent): if the entry
   * turns out written, the next press with the same action id sends exactly this request.
   */
  private readonly unsent = new Map<string, { client: GatewayClient; prepared: PreparedRequest }>();

  constructor(
    readonly journal: JournalPort,
    private readonly connections: Connections,
    private readonly options: ActionPathOptions,
  ) {
    this.inFlight = new InFlight(journal, connections, options);
  }

  get operator(): string {
    return this.options.operator;
  }

  /**
   * The action ids this process is working on now: being decided or sent, or sent and followed
   * to their final status. What a restart would interrupt (an update waits for it).
   */
  busy(): string[] {
    return [...new Set([...this.byActionId.keys(), ...this.inFlight.busy()])];
  }

  /** A fresh client_orderid for a new action; keep it and send it again on every retry. */
  openAction(): { clientOrderId: string } {
    return {
      clientOrderId:
        this.options.newActionId?.() ??
        `pd-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`,
    };
  }

  run<Before>(call: ActionCall<Before>): Promise<ActionResult> {
    const clientOrderId = call.clientOrderId.trim();
    // Calls with one action id run one after another: the second sees what the first did.
    const before = this.byActionId.get(clientOrderId) ?? Promise.resolve();
    const run = before.then(() => this.runOnce({ ...call, clientOrderId }));
    const tail = run.catch(() => undefined);
    this.byActionId.set(clientOrderId, tail);
    void tail.then(() => {
      if (this.byActionId.get(clientOrderId) === tail) this.byActionId.delete(clientOrderId);
    });
    return run;
  }

  private async runOnce<Before>(call: ActionCall<Before>): Promise<ActionResult> {
    let begun: Begun;
    try {
      begun = await this.begin(call);
    } catch (error) {
      // Everything before this point happens before the request can leave: whatever failed
      // (a rule, the store, the database's own constraints), nothing reached the gateway.
      throw markNothingSent(error);
    }
    if ('resume' in begun) {
      const written = await this.sendIfWrittenHere(begun.resume, call);
      if (written) return written;
      try {
        return await this.resume(begun.resume, call);
      } catch (error) {
        // The action id is already in the journal: its request may have left on an earlier
        // try, so nothing said now (a status call refused, a timeout) may call it unsent.
        throw markDelivery(error, 'may-have-reached');
      }
    }
    this.options.onEntryChanged?.(begun.entry);
    try {
      return {
        entry: await this.inFlight.send(begun.client, begun.entry, begun.decided),
        replayed: false,
      };
    } catch (error) {
      throw markDelivery(error, deliveryOfSend(error));
    }
  }

  /**
   * The action up to its write-ahead: the rules, the signed request and its journal entry; or the
   * entry already recorded under this action id, to resume. Sends nothing.
   */
  private async begin<Before>(call: ActionCall<Before>): Promise<Begun> {
    // A store that cannot journal (read-only file, a support login): nothing is sent.
    await this.journal.requireWritable(call.what ?? 'send it');
    const { clientOrderId } = call;
    if (!ACTION_ID.test(clientOrderId)) {
      throw new ServiceError(
        'ACTION_MISMATCH',
        'This action has no valid id; open the action again.',
        'clientOrderId',
      );
    }
    // A retry of an action already recorded: never send blindly.
    const existing = await this.journal.get(clientOrderId);
    if (existing) return { resume: existing };
    // Not written after all: the request signed last time is signed afresh below.
    this.unsent.delete(clientOrderId);

    const { client, profile } = await this.connections.clientFor(call.profileId);
    const before = call.before ? await call.before(client, profile) : (undefined as Before);
    const decide = (entriesOfOrder: readonly JournalEntry[]) => {
      const plan = call.plan(before, entriesOfOrder);
      // Built and signed before the journal entry: a request that cannot be built leaves no entry.
      const prepared = client.prepare(plan.operation, plan.fields);
      const action = plan.action ?? ACTION_OF_OPERATION[plan.operation];
      const entry: NewJournalEntry = {
        clientOrderId,
        profileId: call.profileId,
        operator: this.options.operator,
        operation: plan.operation,
        fields: plan.fields,
        ...(plan.targetOrderId ? { targetOrderId: plan.targetOrderId } : {}),
        ...(plan.amountMinor !== undefined ? { amountMinor: plan.amountMinor } : {}),
        ...(plan.currency ? { currency: plan.currency } : {}),
        ...(plan.reason ? { reason: plan.reason } : {}),
        ...(plan.note ? { note: plan.note } : {}),
        ...(plan.email ? { email: plan.email } : {}),
        ...(action ? { action } : {}),
        ...(plan.targetClientOrderId ? { targetClientOrderId: plan.targetClientOrderId } : {}),
        ...(plan.changedElsewhere ? { changedElsewhere: true } : {}),
        ...(plan.cardLastFour ? { cardLastFour: plan.cardLastFour } : {}),
        lease: this.inFlight.lease(),
      };
      return { entry, decided: prepared };
    };
    const held = call.order?.(before);
    let signed: PreparedRequest | undefined;
    const decideHere = (entriesOfOrder: readonly JournalEntry[]) => {
      const decided = decide(entriesOfOrder);
      signed = decided.decided;
      return decided;
    };
    try {
      return await this.writeAhead(call, held, decideHere, client);
    } catch (error) {
      // Decided and signed, then the write failed: it may have been written all the same.
      if (signed) this.unsent.set(clientOrderId, { client, prepared: signed });
      throw error;
    }
  }

  /** The write-ahead: a claim of the held order, or a plain begin; sends nothing. */
  private async writeAhead<Before>(
    call: ActionCall<Before>,
    held: { orderId: string; doing: string } | undefined,
    decide: (entriesOfOrder: readonly JournalEntry[]) => {
      entry: NewJournalEntry;
      decided: PreparedRequest;
    },
    client: GatewayClient,
  ): Promise<Begun> {
    const { clientOrderId } = call;
    let claim: ClaimResult<PreparedRequest>;
    if (held) {
      // The order held for the rules and the write-ahead: the next window, process or desk to
      // hold it already counts this entry as pending.
      claim = await this.journal.claim(
        {
          profileId: call.profileId,
          orderId: held.orderId,
          clientOrderId,
          action: held.doing,
          // This action is the only one this process is deciding or sending.
          alone: this.byActionId.size === 1,
        },
        decide,
      );
    } else {
      const { entry, decided } = decide([]);
      try {
        claim = { entry: await this.journal.begin(entry), decided };
      } catch (error) {
        // Another process or desk wrote this action id meanwhile: resume it, never send.
        const claimed = error instanceof JournalError && (await this.journal.get(clientOrderId));
        if (!claimed) throw error;
        claim = { claimed };
      }
    }
    if (claim.claimed) return { resume: claim.claimed };
    return { client, entry: claim.entry, decided: claim.decided };
  }

  /**
   * The entry of a write-ahead whose outcome this process did not learn, found written and still
   * sending under this process's lease: nobody else has sent it (a lease is one process's, and
   * this one never let it go), so its request is sent now, once. Undefined for any other entry.
   */
  private async sendIfWrittenHere<Before>(
    existing: JournalEntry,
    call: ActionCall<Before>,
  ): Promise<ActionResult | undefined> {
    const unsent = this.unsent.get(existing.clientOrderId);
    if (!unsent) return undefined;
    this.unsent.delete(existing.clientOrderId);
    if (existing.state !== 'sending' || existing.leaseOwner !== this.inFlight.owner)
      return undefined;
    const mismatch = call.mismatch?.(existing);
    if (mismatch) throw markNothingSent(new ServiceError('ACTION_MISMATCH', mismatch));
    try {
      // Renewed before it leaves, so no other desk takes it for abandoned meanwhile.
      await this.journal.lease(existing.clientOrderId, this.inFlight.lease());
    } catch (error) {
      this.unsent.set(existing.clientOrderId, unsent);
      throw markNothingSent(error);
    }
    this.options.onEntryChanged?.(existing);
    try {
      return {
        entry: await this.inFlight.send(unsent.client, existing, unsent.prepared),
        replayed: false,
      };
    } catch (error) {
      throw markDelivery(error, deliveryOfSend(error));
    }
  }

  /** A retry with a client_orderid already in the journal: the same action, never sent again. */
  private resume<Before>(existing: JournalEntry, call: ActionCall<Before>): Promise<ActionResult> {
    const mismatch =
      call.mismatch?.(existing) ??
      (existing.profileId !== call.profileId
        ? 'This action id was used with another profile; open a new action.'
        : undefined);
    // This try sent nothing: the id names another action, which is left as it is.
    if (mismatch) throw markNothingSent(new ServiceError('ACTION_MISMATCH', mismatch));
    return this.inFlight.resume(existing);
  }

  /** Resolves when the entry's background follow-up has ended (its final status, or given up). */
  settled(clientOrderId: string): Promise<JournalEntry | undefined> {
    return this.inFlight.settled(clientOrderId);
  }

  /** At start: every entry whose final word is owed is asked about again (see in-flight.ts). */
  reconcile(): Promise<JournalEntry[]> {
    return this.inFlight.reconcile();
  }

  /** A person settles an entry by hand, with a reason that goes into the journal. */
  async settleByHand(
    clientOrderId: string,
    outcome: 'approved' | 'not-received',
    reason: string,
  ): Promise<JournalEntry> {
    try {
      return await this.inFlight.settleByHand(clientOrderId, outcome, reason);
    } catch (error) {
      if (error instanceof JournalError) throw new ServiceError('NOT_ALLOWED', error.message);
      throw error;
    }
  }

  /** Stops following orders (the app is quitting); entries stay in flight for the next start. */
  close(): Promise<void> {
    return this.inFlight.close();
  }
}

/** What a failed first send of a written-ahead request says about it. */
function deliveryOfSend(error: unknown) {
  if (error instanceof ValidationError || error instanceof AuthError) return 'gateway-refused';
  if (provablyNotSent(error)) return 'nothing-sent';
  return 'may-have-reached';
}
