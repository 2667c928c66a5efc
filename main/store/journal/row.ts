// A journal entry as a row of columns, one mapping for every place that reads or sends one: the
// desk's SQLite journal, the team's PostgreSQL journal, and the upload of a desk's entries to
// the team (postgres/upload.ts). The two databases hold the same columns in their own types
// (SQLite: integers and JSON text; PostgreSQL: booleans, Dates, jsonb), so a row is read by
// value, whichever store it came from.

import type { JournalEntry, JournalState, JournalStep } from './types';

/**
 * An entry's own columns as JSON carries them (an upload to the team's journal): times as ISO
 * text, the amount as a decimal string (exact at any size), the JSON columns as objects.
 */
export interface EntryColumns {
  client_orderid: string;
  profile_id: string;
  operator: string;
  operation: string;
  target_orderid: string | null;
  target_client_orderid: string | null;
  action: string | null;
  changed_elsewhere: boolean;
  orderid: string | null;
  amount_minor: string | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  email: string | null;
  /** Absent in an upload from a desk before migration 13. */
  card_last_four?: string | null;
  summary: Record<string, string>;
  state: JournalState;
  status: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  final_at: string | null;
  sent_at: string | null;
  settled_by: string | null;
  settle_reason: string | null;
  result: Record<string, string>;
}

/** A time as a store reads it: ISO text (SQLite) or a Date (PostgreSQL). */
type Time = string | Date;
type Json = string | Record<string, string>;

/** A row of either store's journal table, as its driver reads it. */
export interface JournalRow extends Omit<
  EntryColumns,
  | 'changed_elsewhere'
  | 'amount_minor'
  | 'summary'
  | 'result'
  | 'created_at'
  | 'updated_at'
  | 'final_at'
  | 'sent_at'
> {
  id: number | bigint | string;
  /** SQLite: 0 or 1; PostgreSQL: a boolean. */
  changed_elsewhere: number | bigint | boolean;
  /** SQLite: an integer (bigint when read with safeIntegers); PostgreSQL: bigint as text. */
  amount_minor: bigint | number | string | null;
  /** SQLite: JSON text; PostgreSQL: jsonb, already parsed. */
  summary: Json;
  result: Json | null;
  created_at: Time;
  updated_at: Time;
  final_at: Time | null;
  sent_at: Time | null;
  lease_owner: string | null;
  lease_until: Time | null;
  /** The team's journal only: the desk that wrote the entry. */
  desk?: string;
  /** The team's journal only, set together (migration 2) on an entry uploaded from a desk. */
  uploaded_at?: Time | null;
  recorded_operator?: string | null;
  recorded_settled_by?: string | null;
}

const iso = (t: Time): string => (typeof t === 'string' ? t : t.toISOString());
const isoOrNull = (t: Time | null): string | null => (t === null ? null : iso(t));
const json = (value: Json | null): Record<string, string> =>
  value === null || value === ''
    ? {}
    : typeof value === 'string'
      ? (JSON.parse(value) as Record<string, string>)
      : value;

export function entryOfRow(row: JournalRow): JournalEntry {
  return {
    id: Number(row.id),
    clientOrderId: row.client_orderid,
    profileId: row.profile_id,
    operator: row.operator,
    operation: row.operation,
    targetOrderId: row.target_orderid,
    targetClientOrderId: row.target_client_orderid,
    action: row.action,
    changedElsewhere: Number(row.changed_elsewhere) === 1,
    orderId: row.orderid,
    amountMinor: row.amount_minor === null ? null : BigInt(row.amount_minor),
    currency: row.currency,
    reason: row.reason,
    note: row.note,
    email: row.email,
    cardLastFour: row.card_last_four ?? null,
    summary: json(row.summary),
    state: row.state,
    status: row.status,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    finalAt: isoOrNull(row.final_at),
    sentAt: isoOrNull(row.sent_at),
    leaseOwner: row.lease_owner,
    leaseUntil: isoOrNull(row.lease_until),
    settledBy: row.settled_by,
    settleReason: row.settle_reason,
    result: json(row.result),
    ...(row.uploaded_at && typeof row.recorded_operator === 'string'
      ? {
          uploaded: {
            desk: row.desk ?? '',
            at: iso(row.uploaded_at),
            recordedOperator: row.recorded_operator,
            recordedSettledBy: row.recorded_settled_by ?? null,
          },
        }
      : {}),
  };
}

/** The entry's own columns, for JSON (its id, lease and team marks are the store's, not sent). */
export function columnsOfEntry(e: JournalEntry): EntryColumns {
  return {
    client_orderid: e.clientOrderId,
    profile_id: e.profileId,
    operator: e.operator,
    operation: e.operation,
    target_orderid: e.targetOrderId,
    target_client_orderid: e.targetClientOrderId,
    action: e.action,
    changed_elsewhere: e.changedElsewhere,
    orderid: e.orderId,
    amount_minor: e.amountMinor === null ? null : e.amountMinor.toString(),
    currency: e.currency,
    reason: e.reason,
    note: e.note,
    email: e.email,
    card_last_four: e.cardLastFour,
    summary: e.summary,
    state: e.state,
    status: e.status,
    error_code: e.errorCode,
    error_message: e.errorMessage,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
    final_at: e.finalAt,
    sent_at: e.sentAt,
    settled_by: e.settledBy,
    settle_reason: e.settleReason,
    result: e.result,
  };
}

/** A step of an entry's history as both stores read it: its time as each driver gives it. */
export interface StepRow {
  state: JournalState;
  status: string | null;
  orderid: string | null;
  error_code: string | null;
  error_message: string | null;
  at: string | Date;
}

/** One step of an entry's history (times as UTC ISO text, as the journal keeps them). */
export function stepOfRow(r: StepRow): JournalStep {
  return {
    state: r.state,
    status: r.status,
    orderId: r.orderid,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    at: typeof r.at === 'string' ? r.at : r.at.toISOString(),
  };
}
