// The journal port: what the services need of the journal, whichever store holds it. Two
// adapters implement it: the desk's embedded SQLite (sqlite-port.ts, around main/store/sqlite/journal.ts)
// and a team's PostgreSQL (postgres/journal.ts). It is async because a database over the
// network cannot answer synchronously; the SQLite adapter simply answers at once.
//
// The same cases run against both adapters (test/team/journal-port.test.ts): same state machine,
// same refusals (JournalError), same figures. What differs is only what the store can promise:
// on PostgreSQL the operator of an entry is the database login that wrote it (the desk's own
// `operator` is not asked), entries carry the desk, and every answer is also kept in
// paydesk.journal_answers. A failure of the store itself is a StoreError (errors.ts) with a
// code and a sentence for the person at the desk, on both.

import type { CsvChunk } from './csv';
import type {
  EntryResult,
  GatewayAnswer,
  HandSettlement,
  JournalEntry,
  JournalProblem,
  JournalStep,
  NewJournalEntry,
  Page,
} from './types';
import type { JournalFilter } from './filter';
import type { JournalTotals } from './totals';
import type { ReportLine, SummaryQuery } from './summary';

export type {
  EntryResult,
  EntryUpload,
  GatewayAnswer,
  HandSettlement,
  JournalEntry,
  JournalProblem,
  JournalState,
  JournalStep,
  NewJournalEntry,
  Page,
} from './types';
export type { JournalFilter } from './filter';
export type { ReportDay, ReportLine, SummaryQuery } from './summary';
export { IN_FLIGHT, JournalError } from './types';

/** An action about to be decided on an order, and the entry it will write before sending. */
export interface OrderClaim {
  profileId: string;
  /** The gateway orderid the action acts on: no two desks decide on it at once. */
  orderId: string;
  /** The action's fresh client_orderid (its action id). */
  clientOrderId: string;
  /** What the desk is doing, as a verb phrase ("refunding"), for a desk that finds it busy. */
  action: string;
  /**
   * No other action of this process is being decided or sent: no other claim could share this
   * one's commit, so a store that groups commits need not wait for company (SQLite's).
   */
  alone?: boolean;
}

/**
 * The decision, taken with the order's other entries in view (captures, refunds, voids of it,
 * pending ones included): the entry to write before the request leaves, and anything the
 * caller wants back (the prepared request). It may throw to refuse: nothing is written.
 * It is synchronous: nothing slow (no gateway call) happens while the order is held.
 */
export type ClaimDecision<T> = (entriesOfOrder: readonly JournalEntry[]) => {
  entry: NewJournalEntry;
  decided: T;
};

/** The entry a claim writes must act on the order it holds; anything else is a bug in the caller. */
export function checkClaimedEntry(claim: OrderClaim, entry: NewJournalEntry): void {
  if (
    entry.profileId !== claim.profileId ||
    entry.targetOrderId !== claim.orderId ||
    entry.clientOrderId !== claim.clientOrderId
  ) {
    throw new Error(
      `A claim on order ${claim.orderId} (${claim.clientOrderId}) cannot write an entry for order ${entry.targetOrderId ?? 'none'} (${entry.clientOrderId}).`,
    );
  }
}

export type ClaimResult<T> =
  /** The action id is already in the journal (another window or desk took it): resume, never send. */
  { claimed: JournalEntry } | { claimed?: undefined; entry: JournalEntry; decided: T };

export interface JournalPort {
  /** Which store this is, for the log and the settings screen; never for decisions. */
  readonly store: 'sqlite' | 'postgres';

  /**
   * Refuses, before anything is asked of the gateway, an action this desk could not journal:
   * SQLite opened read-only (a damaged or unwritable file), or a team login whose role may not
   * write money-moving entries. A StoreError that says why; the database still decides.
   */
  requireWritable(action: string): Promise<void>;

  /**
   * One desk at a time on one order: reads what the journal knows of the order, decides, and
   * writes the entry before its request leaves, all while holding the order (an IMMEDIATE
   * transaction on SQLite, the order's advisory lock on PostgreSQL). The next desk to hold the
   * order already counts this entry. On PostgreSQL a desk that finds the order held gets a
   * StoreError 'BUSY' naming the holder ("ann (desk Front-1) is refunding order 9001 right now").
   */
  claim<T>(claim: OrderClaim, decide: ClaimDecision<T>): Promise<ClaimResult<T>>;

  /** Writes an entry before its request leaves; refuses a reused client_orderid. */
  begin(entry: NewJournalEntry): Promise<JournalEntry>;
  get(clientOrderId: string): Promise<JournalEntry | undefined>;

  /** The gateway acknowledged the request (an async-response): its orderid is now known. */
  acknowledge(
    clientOrderId: string,
    orderId: string | undefined,
    result?: EntryResult,
  ): Promise<JournalEntry>;
  /** The gateway's final status for the operation. */
  finish(clientOrderId: string, answer: GatewayAnswer): Promise<JournalEntry>;
  /**
   * The acknowledgement and the final status learned together (the `status` asked right after
   * the answer was final already): both moves, each a step of the entry's history, in one
   * transaction. The final status is recorded only while the entry is still in flight after
   * the acknowledgement: what a person settled meanwhile stays.
   */
  acknowledgeAndFinish(
    clientOrderId: string,
    acknowledged: { orderId: string | undefined; result?: EntryResult },
    answer: GatewayAnswer,
  ): Promise<JournalEntry>;
  /** The gateway refused the request, or it provably never left: nothing was processed. */
  refuse(clientOrderId: string, error: JournalProblem): Promise<JournalEntry>;
  /** The request may have reached the gateway but its answer did not reach us: unsettled. */
  markUnknown(clientOrderId: string, error: JournalProblem): Promise<JournalEntry>;
  /** A person settles an entry Paydesk cannot settle, with their reason. */
  settleByHand(clientOrderId: string, settlement: HandSettlement): Promise<JournalEntry>;
  /** Renews (or takes over, or with null ends) the lease of an entry being sent. */
  lease(clientOrderId: string, lease: { owner: string; until: Date } | null): Promise<void>;

  /** Entries whose final answer is still owed, oldest first: what a start must reconcile. */
  inFlight(profileId?: string): Promise<JournalEntry[]>;
  /** Every entry acting on an order (captures, refunds, voids of it), oldest first. */
  forTarget(orderId: string): Promise<JournalEntry[]>;
  /**
   * Every entry acting on an order (forTarget's) or being it (the entry that made it: a rebill,
   * a link paid, a capture's own order), oldest first: an order's page.
   */
  ofOrder(orderId: string): Promise<JournalEntry[]>;
  search(filter?: JournalFilter, offset?: number, limit?: number): Promise<Page<JournalEntry>>;
  /** The filter's totals per currency and action (journal/totals.ts says what counts). */
  totals(filter?: JournalFilter): Promise<JournalTotals>;
  /** Every state the entry went through, oldest first: written, then each answer (any desk's). */
  history(clientOrderId: string): Promise<JournalStep[]>;
  /** Every entry matching the filter, newest first, a page at a time. */
  iterate(filter?: JournalFilter): AsyncIterable<JournalEntry>;
  /**
   * The filter's entries as CSV lines (store/csv.ts, without the header), newest first, `size`
   * entries a chunk: each store in the form it makes fastest (SQLite's raw rows as bytes). The
   * last chunk carries the totals of the entries written (CsvChunk.totals). `profileName`
   * names each entry's profile in the profile column (absent: its id).
   */
  csvChunks(
    filter: JournalFilter,
    size: number,
    profileName?: (id: string) => string,
    prepared?: PreparedExport,
  ): AsyncIterable<CsvChunk>;
  /**
   * Starts what an export will need before the export itself, while the person chooses its file
   * (SQLite: the worker thread that makes part of a large export's lines), for csvChunks to
   * take. A store with nothing to start has none.
   */
  prepareCsvExport?(): PreparedExport;
  /**
   * The daily close (Reports): the entries of the days grouped by day, currency, kind, operator
   * and outcome, counted and summed by the store's own SQL (journal/summary.ts).
   */
  summary(query: SummaryQuery): Promise<ReportLine[]>;
}

/**
 * What a store started ahead of an export (JournalPort.prepareCsvExport): the export that is
 * handed it uses it and lets it go; end() lets it go when no export came (the save dialog was
 * cancelled). Ending it twice, or after its export, does nothing.
 */
export interface PreparedExport {
  end(): void;
}
