// The journal's domain: an entry, its states and the answers that move it, as both stores hold
// them (the desk's SQLite, store/sqlite/journal.ts, and the team's PostgreSQL,
// store/postgres/journal.ts). Types and constants only: no store, no rule.

export type JournalState = 'sending' | 'acknowledged' | 'final' | 'refused' | 'unknown';

/** States in which the gateway's final word on an entry is still owed. */
export const IN_FLIGHT: readonly JournalState[] = ['sending', 'acknowledged', 'unknown'];

export interface NewJournalEntry {
  clientOrderId: string;
  profileId: string;
  operator: string;
  operation: string;
  /** The order the operation acts on (capture, return, void). */
  targetOrderId?: string;
  /** That order's shop id (its client_orderid), as the status read before acting gave it. */
  targetClientOrderId?: string;
  /** What the clerk did, in the words of JOURNAL_ACTIONS (common/contract.ts). */
  action?: string;
  /** The order showed captures or refunds made outside Paydesk when this was written. */
  changedElsewhere?: boolean;
  amountMinor?: bigint;
  currency?: string;
  reason?: string;
  note?: string;
  email?: string;
  /**
   * The last four digits of the card the order was paid with, as the status read before acting
   * gave them; absent, they are read from a card number the request itself carries (masked).
   */
  cardLastFour?: string;
  /** The request's fields; they are redacted before they are stored. */
  fields: Readonly<Record<string, string>>;
  /** Who is sending it and until when: another process seeing the lease waits, never sends. */
  lease?: { owner: string; until: Date };
}

export interface JournalEntry {
  id: number;
  clientOrderId: string;
  profileId: string;
  operator: string;
  operation: string;
  targetOrderId: string | null;
  targetClientOrderId: string | null;
  action: string | null;
  changedElsewhere: boolean;
  orderId: string | null;
  amountMinor: bigint | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  email: string | null;
  /** The card's last four digits, where the entry knows its card (entries before migration 13 of captures, voids and refunds do not). */
  cardLastFour: string | null;
  summary: Record<string, string>;
  state: JournalState;
  status: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  finalAt: string | null;
  /** When the request may first have left; an unsettled entry's quarantine counts from here. */
  sentAt: string | null;
  leaseOwner: string | null;
  leaseUntil: string | null;
  /** Set when a person settled the entry by hand, with their reason. */
  settledBy: string | null;
  settleReason: string | null;
  /** What the gateway answered beyond its status (card-ref-id, recurring-payment-id, redirect-url). */
  result: Record<string, string>;
  /**
   * On a team journal, an entry uploaded from a desk's own journal (team-upload.ts): which desk,
   * when, and who the desk recorded as its operator and as its settler by hand (the entry's
   * operator is the login that uploaded it). Absent for everything else.
   */
  uploaded?: EntryUpload;
}

export interface EntryUpload {
  desk: string;
  at: string;
  recordedOperator: string;
  recordedSettledBy: string | null;
}

/** One step of an entry's life: written, acknowledged, answered. */
export interface JournalStep {
  state: JournalState;
  status: string | null;
  orderId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  at: string;
}

/** Answer fields kept in an entry's result; anything else of an answer is not kept. */
export type EntryResult = Readonly<Record<string, string>>;

export interface Page<T> {
  rows: T[];
  total: number;
  offset: number;
  limit: number;
}

export class JournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalError';
  }
}

/** The gateway's final answer to an entry, as the journal records it. */
export interface GatewayAnswer {
  status: string;
  /** What the gateway answered beyond its status (card-ref-id, ...), merged into the entry's result. */
  result?: EntryResult;
  orderId?: string;
  errorCode?: string;
  errorMessage?: string;
}

export interface JournalProblem {
  code?: string;
  message: string;
}

export interface HandSettlement {
  outcome: 'approved' | 'not-received';
  reason: string;
  /** Who settles it (on PostgreSQL the login that connected, whatever this says). */
  by: string;
}
