// The journal: every operation that moves money or registers something is written here
// *before* it is sent, with its fresh client_orderid, and updated with each answer. After a
// crash or a lost answer an entry is reconciled by asking `status`, never by sending again.
// Rows are never deleted; their state only moves forward.
//
// The state machine: sending -> acknowledged -> final, sending/unknown -> refused, and
// sending -> unknown when the request may have reached the gateway but its answer did not
// reach us (an *unsettled* entry: it counts as pending until the gateway's status or a person
// settles it). A repeat of the state an entry is already in is a no-op (final stays final,
// unknown stays unknown); anything else backwards is refused. Every change reads and writes the
// row in one IMMEDIATE transaction, so one writer at a time changes an entry, in this process or
// another one on the same file.
// These are the journal's writes; its reads are JournalReads' (journal-reads.ts), which it extends.

import type Database from 'better-sqlite3';

import type { Db } from './database';
import { withoutFsync } from './durability';
import {
  acknowledgeRule,
  finishRule,
  illegalMove,
  markUnknownRule,
  refuseCardData,
  refuseRule,
  settleByHandRule,
  type Rule,
} from '../journal/rules';
import {
  IN_FLIGHT,
  JournalError,
  type EntryResult,
  type GatewayAnswer,
  type HandSettlement,
  type JournalEntry,
  type JournalProblem,
  type NewJournalEntry,
} from '../journal/types';
import { cardLastFourOf, redactFields } from '../journal/redact';
import { JournalReads } from './journal-reads';

/** Where each column a transition sets lives in a JournalEntry. */
const ENTRY_FIELD_OF: Readonly<Record<string, keyof JournalEntry>> = {
  state: 'state',
  status: 'status',
  orderid: 'orderId',
  error_code: 'errorCode',
  error_message: 'errorMessage',
  final_at: 'finalAt',
  settled_by: 'settledBy',
  settle_reason: 'settleReason',
};

/** The journal's writes; its reads are JournalReads' (journal-reads.ts). */
export class Journal extends JournalReads {
  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(db);
  }

  /** Writes the entry before its request leaves; refuses a reused client_orderid. */
  begin(entry: NewJournalEntry): JournalEntry {
    // The last guard before the disk (journal-rules.ts, shared with the team journal).
    refuseCardData(entry);
    const at = this.now().toISOString();
    // The entry as written: the INSERT sets every column from it, so it is not read back (one
    // statement, one commit); only its id comes from the database.
    const written: JournalEntry = {
      id: 0,
      clientOrderId: entry.clientOrderId,
      profileId: entry.profileId,
      operator: entry.operator,
      operation: entry.operation,
      targetOrderId: entry.targetOrderId ?? null,
      targetClientOrderId: entry.targetClientOrderId ?? null,
      action: entry.action ?? null,
      changedElsewhere: entry.changedElsewhere ?? false,
      orderId: null,
      amountMinor: entry.amountMinor ?? null,
      currency: entry.currency ?? null,
      reason: entry.reason ?? null,
      note: entry.note ?? null,
      email: entry.email ?? null,
      cardLastFour: cardLastFourOf(entry.cardLastFour, entry.fields),
      summary: redactFields(entry.fields),
      state: 'sending',
      status: null,
      errorCode: null,
      errorMessage: null,
      createdAt: at,
      updatedAt: at,
      finalAt: null,
      sentAt: at,
      leaseOwner: entry.lease?.owner ?? null,
      leaseUntil: entry.lease?.until.toISOString() ?? null,
      settledBy: null,
      settleReason: null,
      result: {},
    };
    let id: number | bigint;
    try {
      id = this.statement(
        `INSERT INTO journal (client_orderid, profile_id, operator, operation, target_orderid, amount_minor,
             currency, reason, note, email, summary, state, created_at, updated_at, sent_at,
             lease_owner, lease_until, target_client_orderid, action,
             changed_elsewhere, card_last_four)
           VALUES (@clientOrderId, @profileId, @operator, @operation, @targetOrderId, @amountMinor,
             @currency, @reason, @note, @email, @summary, @state, @createdAt, @updatedAt, @sentAt,
             @leaseOwner, @leaseUntil, @targetClientOrderId, @action,
             @changedElsewhere, @cardLastFour)`,
      ).run({
        ...written,
        summary: JSON.stringify(written.summary),
        changedElsewhere: written.changedElsewhere ? 1 : 0,
      }).lastInsertRowid;
    } catch (error) {
      if (String(error).includes('UNIQUE constraint failed: journal.client_orderid')) {
        throw new JournalError(
          `client_orderid ${entry.clientOrderId} is already in the journal; every operation needs a fresh one.`,
        );
      }
      throw error;
    }
    return { ...written, id: Number(id) };
  }

  private require(clientOrderId: string): JournalEntry {
    const entry = this.get(clientOrderId);
    if (!entry) throw new JournalError(`No journal entry for client_orderid ${clientOrderId}.`);
    return entry;
  }

  /** The gateway acknowledged the request (an async-response): its orderid is now known. */
  acknowledge(
    clientOrderId: string,
    orderId: string | undefined,
    result?: EntryResult,
  ): JournalEntry {
    return this.transition(clientOrderId, acknowledgeRule(orderId, result));
  }

  /** The gateway's final status for the operation. */
  finish(clientOrderId: string, answer: GatewayAnswer): JournalEntry {
    return this.transition(clientOrderId, finishRule(answer));
  }

  /**
   * The acknowledgement and the final status learned together (the status asked right after
   * the answer was already final): both moves in one transaction, so one commit, each a step
   * of the entry's history. The entry is read once; the final answer is recorded only while
   * the entry is still in flight after the acknowledgement (a person's settlement stays).
   * The row is written once, with both moves' columns: the acknowledgement's step goes into
   * the history as its own row (historyStep), as the trigger would have written it for an
   * UPDATE of its own, and the trigger writes the final step. One UPDATE of the row changes
   * each index the moves touch once, not twice.
   */
  acknowledgeAndFinish(
    clientOrderId: string,
    acknowledged: { orderId: string | undefined; result?: EntryResult },
    answer: GatewayAnswer,
  ): JournalEntry {
    return withoutFsync(this.db, () =>
      this.inTransaction(() => {
        const current = this.require(clientOrderId);
        const rule = acknowledgeRule(acknowledged.orderId, acknowledged.result);
        const ack = this.decide(clientOrderId, rule, current);
        const at = this.now().toISOString();
        const seen = ack === 'same' ? current : applied(current, ack, at);
        // A column the entry does not mirror (none today): the two moves as two UPDATEs.
        if (!seen) {
          const acked = this.move(clientOrderId, rule, current);
          if (!IN_FLIGHT.includes(acked.state)) return acked;
          return this.move(clientOrderId, finishRule(answer), acked);
        }
        if (!IN_FLIGHT.includes(seen.state))
          return ack === 'same' ? current : this.write(clientOrderId, current, ack, at);
        const fin = this.decide(clientOrderId, finishRule(answer), seen);
        if (fin === 'same')
          return ack === 'same' ? current : this.write(clientOrderId, current, ack, at);
        if (ack === 'same') return this.write(clientOrderId, current, fin, at);
        if (historyChanged(current, seen)) this.historyStep(seen, at);
        return this.write(clientOrderId, current, bothMoves(ack, fin), at);
      }),
    );
  }

  /** The gateway refused the request, or it provably never left: nothing was processed. */
  refuse(clientOrderId: string, error: JournalProblem): JournalEntry {
    return this.transition(clientOrderId, refuseRule(error));
  }

  /**
   * The request may have reached the gateway but its answer did not reach us (timeout, cut
   * connection, 5xx, a crash): the entry is unsettled until `status` or a person settles it.
   */
  markUnknown(clientOrderId: string, error: JournalProblem): JournalEntry {
    return this.transition(clientOrderId, markUnknownRule(error));
  }

  /**
   * A person settles an entry whose outcome Paydesk cannot learn (the gateway has no record
   * of it, or it stays processing), with their reason. Never silent: it is in the journal.
   */
  settleByHand(clientOrderId: string, settlement: HandSettlement): JournalEntry {
    return this.transition(clientOrderId, settleByHandRule(clientOrderId, settlement), true);
  }

  /** Renews (or takes over) the lease of an entry being sent. */
  lease(clientOrderId: string, lease: { owner: string; until: Date } | null): void {
    this.statement(
      'UPDATE journal SET lease_owner = ?, lease_until = ? WHERE client_orderid = ?',
    ).run(lease?.owner ?? null, lease?.until.toISOString() ?? null, clientOrderId);
  }

  /**
   * Reads the entry, decides by the state machine's rule (journal-rules.ts: the columns to set,
   * 'same' for a legal repeat, or 'illegal'), and writes, in one IMMEDIATE transaction: one
   * writer at a time.
   */
  private transition(clientOrderId: string, rule: Rule, byHand = false): JournalEntry {
    // A person's settlement waits for the disk like any commit. A record of the gateway's answer
    // does not (durability.ts): lost only to a power cut, which leaves the entry in flight, to
    // be asked about by `status` again.
    if (byHand) return this.transact(clientOrderId, rule);
    return withoutFsync(this.db, () => this.transact(clientOrderId, rule));
  }

  private transact(clientOrderId: string, rule: Rule): JournalEntry {
    return this.inTransaction(() => this.move(clientOrderId, rule));
  }

  /**
   * Runs `work` in an IMMEDIATE transaction, or simply runs it inside the one already open (a
   * group of answers, group-commit.ts, each in its savepoint): a move is one read and one
   * UPDATE under that transaction's write lock, and a savepoint of its own would only add two
   * statements.
   */
  private inTransaction(work: () => JournalEntry): JournalEntry {
    if (this.db.inTransaction) return work();
    this.transactions ??= this.db.transaction((w: () => JournalEntry) => w());
    return this.transactions.immediate(work);
  }

  /** Made once: better-sqlite3 builds four wrapped functions for every db.transaction(). */
  private transactions:
    Database.Transaction<(work: () => JournalEntry) => JournalEntry> | undefined;

  /**
   * One move of an entry, inside its IMMEDIATE transaction (inTransaction). `current` is the
   * entry as this same transaction last wrote it, when it did (nothing else can change it
   * under the write lock); otherwise it is read.
   */
  private move(
    clientOrderId: string,
    rule: Rule,
    current: JournalEntry = this.require(clientOrderId),
  ): JournalEntry {
    const set = this.decide(clientOrderId, rule, current);
    if (set === 'same') return current;
    return this.write(clientOrderId, current, set, this.now().toISOString());
  }

  /** The columns `rule` sets on `current`, or 'same'; throws for an illegal move. */
  private decide(
    clientOrderId: string,
    rule: Rule,
    current: JournalEntry,
  ): Record<string, string | null> | 'same' {
    const decided = rule.decide(current);
    if (decided === 'same') return 'same';
    if (decided === 'illegal') throw illegalMove(clientOrderId, current, rule.to);
    // The clock is the store's: an entry that ends (final or refused) ends now.
    return decided.state === 'final' || decided.state === 'refused'
      ? { ...decided, final_at: this.now().toISOString() }
      : decided;
  }

  /** One UPDATE of the row with `set`; the entry as written (read back only when unknown). */
  private write(
    clientOrderId: string,
    current: JournalEntry,
    set: Record<string, string | null>,
    updatedAt: string,
  ): JournalEntry {
    this.updateOf(Object.keys(set), set.state).run({
      ...set,
      updated_at: updatedAt,
      client_orderid: clientOrderId,
    });
    return applied(current, set, updatedAt) ?? this.require(clientOrderId);
  }

  /** The UPDATE setting these columns, by a short key (the SQL text is built once). */
  private readonly updates = new Map<string, Database.Statement>();
  private updateOf(columns: string[], state: string | null | undefined): Database.Statement {
    // Leaving 'sending' ends the lease: nobody is sending it any more.
    const endsLease = Boolean(state) && state !== 'sending';
    const key = `${columns.join(',')}${endsLease ? '+' : ''}`;
    let statement = this.updates.get(key);
    if (!statement) {
      // COALESCE keeps an orderid learned earlier when a later answer does not repeat it.
      const sets = columns.map((c) =>
        c === 'orderid' ? 'orderid = COALESCE(@orderid, orderid)' : `${c} = @${c}`,
      );
      const lease = endsLease ? ', lease_owner = NULL, lease_until = NULL' : '';
      statement = this.statement(
        `UPDATE journal SET ${sets.join(', ')}${lease}, updated_at = @updated_at WHERE client_orderid = @client_orderid`,
      );
      this.updates.set(key, statement);
    }
    return statement;
  }

  /**
   * A step of the entry's history written here, as the update trigger (migration 5) writes it
   * from the row after an UPDATE: for a move whose row is not written on its own.
   */
  private historyStep(entry: JournalEntry, at: string): void {
    this.statement(
      `INSERT INTO journal_history (client_orderid, state, status, orderid, error_code, error_message, at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.clientOrderId,
      entry.state,
      entry.status,
      entry.orderId,
      entry.errorCode,
      entry.errorMessage,
      at,
    );
  }
}

/**
 * The entry after an UPDATE of `set`, as the UPDATE wrote it (so it need not be read back), or
 * undefined when `set` names a column this does not know (the caller reads the row then).
 */
function applied(
  current: JournalEntry,
  set: Record<string, string | null>,
  updatedAt: string,
): JournalEntry | undefined {
  const next: Record<string, unknown> = { ...current, updatedAt };
  for (const [column, value] of Object.entries(set)) {
    // The result is stored as JSON (journal/rules.ts mergeResult writes it whole).
    if (column === 'result') {
      next.result = value === null ? {} : (JSON.parse(value) as Record<string, string>);
      continue;
    }
    const field = ENTRY_FIELD_OF[column];
    if (!field) return undefined;
    // As the UPDATE's COALESCE: an orderid learned earlier stays when this answer has none.
    next[field] = column === 'orderid' ? (value ?? current.orderId) : value;
  }
  if (set.state && set.state !== 'sending') {
    next.leaseOwner = null;
    next.leaseUntil = null;
  }
  return next as unknown as JournalEntry;
}

/** Whether the history trigger would record a step for a row going from `before` to `after`. */
function historyChanged(before: JournalEntry, after: JournalEntry): boolean {
  return (
    before.state !== after.state ||
    before.status !== after.status ||
    before.orderId !== after.orderId ||
    before.errorCode !== after.errorCode ||
    before.errorMessage !== after.errorMessage
  );
}

/**
 * The columns of two moves made in one UPDATE: the second's win, except an orderid the second
 * does not name, which stays the first's (as the second UPDATE's COALESCE would keep it).
 */
function bothMoves(
  first: Record<string, string | null>,
  second: Record<string, string | null>,
): Record<string, string | null> {
  const both = { ...first, ...second };
  if ('orderid' in first) both.orderid = second.orderid ?? first.orderid ?? null;
  return both;
}
