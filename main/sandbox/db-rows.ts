// The rows of the sandbox's tables as SQLite hands them back (db-schema.ts makes the tables):
// every integer a bigint (defaultSafeIntegers), so money is integer minor units end to end and
// never passes through a float; times are milliseconds on the sandbox clock (clock.ts). Apart from
// the store (db.ts) because most of the sandbox reads these types and never the store.

export type TxKind =
  | 'sale'
  | 'preauth'
  | 'capture'
  | 'reversal'
  | 'cancel'
  | 'void'
  | 'account-verification'
  | 'rebill'
  | 'recurring'
  | 'payout'
  | 'transfer'
  | 'pan-eligibility';

export type TxStatus = 'processing' | 'approved' | 'declined' | 'error' | 'filtered' | 'unknown';

/**
 * Where a transaction that is still `processing` waits: `queued` until its due time,
 * `form` for the customer on a hosted page, `3ds-method` / `3ds-challenge` for 3DS,
 * `checked` for a registered payout waiting for payout-pay. `final` once it has a final status
 * (or `unknown`, which never moves by itself).
 */
export type TxStage = 'queued' | 'form' | '3ds-method' | '3ds-challenge' | 'checked' | 'final';

/** What processing will end in, decided when the card data arrives (cards.ts). */
export type TxPlan = 'approve' | 'decline' | 'unknown';

export interface TxRow {
  id: bigint;
  endpoint_id: string;
  client_orderid: string;
  operation: string;
  kind: TxKind;
  /** The transaction this one acts on (capture -> preauth, reversal -> sale, ...). */
  parent_id: bigint | null;
  status: TxStatus;
  stage: TxStage;
  plan: TxPlan;
  amount_minor: bigint;
  currency: string;
  email: string | null;
  card_bin: string | null;
  card_last4: string | null;
  card_type: string | null;
  card_holder: string | null;
  card_exp_month: string | null;
  card_exp_year: string | null;
  /** The card reference charged (rebill, recurring) or created from this order (create-card-ref). */
  card_ref_id: bigint | null;
  /** A payout's or transfer's destination, masked. */
  destination: string | null;
  redirect_url: string | null;
  server_callback_url: string | null;
  decline_code: string | null;
  decline_reason: string | null;
  approval_code: string | null;
  rrn: string | null;
  /** Secret part of the sandbox page addresses (hosted form, ACS) of this transaction. */
  page_token: string | null;
  /** Whether a 3DS challenge is part of this transaction's processing. */
  three_ds: bigint;
  comp_ind: string | null;
  due_at: bigint | null;
  final_at: bigint | null;
  /** Set when an approved void of this transaction completes. */
  voided_at: bigint | null;
  created_at: bigint;
}

export interface CardRefRow {
  id: bigint;
  endpoint_id: string;
  source_tx_id: bigint | null;
  card_bin: string;
  card_last4: string;
  card_type: string;
  card_holder: string;
  card_exp_month: string;
  card_exp_year: string;
  created_at: bigint;
}

export interface RecurringRow {
  id: bigint;
  endpoint_id: string;
  client_orderid: string;
  card_ref_id: bigint;
  amount_minor: bigint;
  currency: string;
  period: 'day' | 'week' | 'month';
  interval: bigint;
  /** Charges still to make; null for no end. */
  repeats_left: bigint | null;
  charges: bigint;
  next_due_at: bigint;
  /** The first due time; later due times are computed from it, so month ends do not drift. */
  anchor_at: bigint;
  server_callback_url: string | null;
  created_at: bigint;
}

export interface CallbackRow {
  id: bigint;
  tx_id: bigint;
  url: string;
  attempts: bigint;
  next_at: bigint;
  state: 'pending' | 'sending' | 'delivered' | 'failed';
  last_error: string | null;
}
