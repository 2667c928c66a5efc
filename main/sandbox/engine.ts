// The order state machine: how transactions are created, wait (3DS, hosted page, payout-pay),
// become final after the configured delay, and which follow-ups (capture, return, void) the
// spec's rules allow. Every refusal says why in words a clerk can act on. Money is bigint minor
// units throughout.

import { randomBytes, randomInt } from 'node:crypto';

import { formatMinor } from '../gateway/amount';
import { refuse } from './codes';
import type { SandboxClock } from './clock';
import type { Store, TxKind, TxPlan, TxRow, TxStatus } from './db';

export interface EngineSettings {
  /** How long a transaction stays `processing` once nothing else holds it. */
  delayMs: number;
  /** After this long an approved sale or capture counts as settled and can no longer be voided. */
  settleAfterMs: number;
}

/** Transactions that count against what is left: in flight, done, or stuck waiting for a person. */
const LIVE: readonly TxStatus[] = ['processing', 'approved', 'unknown'];
const SALE_LIKE: readonly TxKind[] = ['sale', 'rebill', 'recurring'];
export const FINAL: readonly TxStatus[] = ['approved', 'declined', 'error', 'filtered'];

const STAGE_PREFIX: Record<TxKind, string> = {
  sale: 'sale',
  preauth: 'auth',
  capture: 'capture',
  reversal: 'reversal',
  cancel: 'cancel',
  void: 'void',
  'account-verification': 'verify',
  rebill: 'rebill',
  recurring: 'recurring',
  payout: 'payout',
  transfer: 'transfer',
  'pan-eligibility': 'pan_eligibility',
};

const describe = (tx: TxRow) => `order ${tx.id} (${tx.kind})`;
const money = (minor: bigint, currency: string) => `${formatMinor(minor, currency)} ${currency}`;

export type NewTx = Parameters<Store['insertTx']>[0];

export class Engine {
  constructor(
    readonly store: Store,
    readonly clock: SandboxClock,
    readonly settings: EngineSettings,
    /** Told about every transaction that reaches a final status (callbacks hook in here). */
    private readonly onFinal: (tx: TxRow) => void = () => undefined,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /** Creates a transaction; one that waits for nothing is queued to become final after the delay. */
  create(values: Omit<NewTx, 'created_at'>): TxRow {
    const stage = values.stage ?? 'queued';
    const now = this.now();
    return this.store.insertTx({
      ...values,
      stage,
      due_at: stage === 'queued' ? BigInt(now + this.settings.delayMs) : null,
      page_token:
        values.page_token ??
        (stage === 'form' || stage === '3ds-method' || stage === '3ds-challenge'
          ? newToken()
          : null),
      created_at: BigInt(now),
    });
  }

  /** Releases a waiting transaction into processing: final after the delay. */
  queue(tx: TxRow, patch: Partial<TxRow> = {}): TxRow {
    return this.store.updateTx(tx.id, {
      ...patch,
      stage: 'queued',
      due_at: BigInt(this.now() + this.settings.delayMs),
    });
  }

  /** Makes every transaction whose time has come final. Returns how many moved. */
  finalizeDue(): number {
    const due = this.store.dueTx(this.now());
    for (const tx of due) this.store.atomically(() => this.finalize(tx));
    return due.length;
  }

  private finalize(tx: TxRow): void {
    const now = BigInt(this.now());
    const outcome = planToStatus(tx.plan);
    const updated = this.store.updateTx(tx.id, {
      status: outcome,
      stage: 'final',
      due_at: null,
      final_at: outcome === 'unknown' ? null : now,
      ...(outcome === 'approved'
        ? {
            approval_code: String(randomInt(100000, 1000000)),
            rrn: String(randomInt(100000000, 1000000000)) + String(randomInt(100, 1000)),
          }
        : {}),
      ...(outcome === 'declined' && !tx.decline_reason
        ? { decline_code: '05', decline_reason: 'Declined: do not honor' }
        : {}),
    });
    if (updated.kind === 'void' && updated.status === 'approved' && updated.parent_id !== null) {
      this.store.updateTx(updated.parent_id, { voided_at: now });
    }
    if ((FINAL as readonly string[]).includes(updated.status)) this.onFinal(updated);
  }

  // Reading an order ---------------------------------------------------------------------

  /** The transaction in this merchant's books, or a refusal naming what was not found. */
  find(endpointId: string, orderid: string, field = 'orderid'): TxRow {
    const id = /^\d{1,18}$/.test(orderid) ? BigInt(orderid) : undefined;
    const tx = id === undefined ? undefined : this.store.txOf(endpointId, id);
    if (!tx)
      throw refuse(
        'NOT_FOUND',
        `No order with ${field} ${orderid} exists for endpoint ${endpointId}.`,
      );
    return tx;
  }

  root(tx: TxRow): TxRow {
    let current = tx;
    for (let i = 0; i < 10 && current.parent_id !== null; i++) {
      const parent = this.store.tx(current.parent_id);
      if (!parent) break;
      current = parent;
    }
    return current;
  }

  private live(tx: TxRow, kinds: readonly TxKind[]): TxRow[] {
    return this.store
      .children(tx.id)
      .filter((c) => kinds.includes(c.kind) && LIVE.includes(c.status));
  }

  private sum(rows: readonly TxRow[]): bigint {
    return rows.reduce((total, row) => total + row.amount_minor, 0n);
  }

  /** Captured (or being captured) from a preauth; voided captures give their amount back. */
  capturedMinor(preauth: TxRow): bigint {
    return this.sum(this.live(preauth, ['capture']).filter((c) => c.voided_at === null));
  }

  reversedMinor(tx: TxRow): bigint {
    return this.sum(this.live(tx, ['reversal']));
  }

  isCancelled(preauth: TxRow): boolean {
    return this.live(preauth, ['cancel']).length > 0;
  }

  isSettled(tx: TxRow): boolean {
    return (
      tx.status === 'approved' &&
      tx.final_at !== null &&
      Number(tx.final_at) + this.settings.settleAfterMs <= this.now()
    );
  }

  /** `order-stage`, as deployed gateways word it: sale_3d_validating, auth_approved, ... */
  orderStage(tx: TxRow): string {
    const prefix = STAGE_PREFIX[tx.kind];
    switch (tx.stage) {
      case 'form':
        return `${prefix}_form_waiting`;
      case '3ds-method':
        return `${prefix}_3d_method`;
      case '3ds-challenge':
        return `${prefix}_3d_validating`;
      case 'checked':
        return `${prefix}_checked`;
      case 'queued':
        return `${prefix}_processing`;
      case 'final':
        break;
    }
    if (tx.status !== 'approved') return `${prefix}_${tx.status}`;
    if (tx.voided_at !== null) return `${prefix}_voided`;
    if (tx.kind === 'preauth') {
      if (this.isCancelled(tx)) return `${prefix}_cancelled`;
      const captured = this.capturedMinor(tx);
      if (captured > 0n)
        return captured >= tx.amount_minor ? `${prefix}_captured` : `${prefix}_partially_captured`;
    }
    const reversed = this.reversedMinor(tx);
    if (reversed > 0n)
      return reversed >= tx.amount_minor ? `${prefix}_reversed` : `${prefix}_partially_reversed`;
    return `${prefix}_approved`;
  }

  // Follow-up rules ----------------------------------------------------------------------

  /** capture: only on an approved preauth, never above what is left of the hold. */
  capture(
    target: TxRow,
    requested: { minor: bigint; currency: string } | undefined,
    clientOrderId: string,
  ): TxRow {
    if (target.kind !== 'preauth') {
      throw refuse('WRONG_STATE', `Capture settles a preauth; ${describe(target)} is not one.`);
    }
    if (target.status !== 'approved') {
      throw refuse(
        'WRONG_STATE',
        `Only an approved preauth can be captured; ${describe(target)} is ${target.status}.`,
      );
    }
    if (this.isCancelled(target))
      throw refuse(
        'WRONG_STATE',
        `The hold of ${describe(target)} was cancelled; nothing can be captured.`,
      );
    const left = target.amount_minor - this.capturedMinor(target);
    if (left <= 0n) throw refuse('WRONG_STATE', `${describe(target)} is already fully captured.`);
    if (requested && requested.currency !== target.currency) {
      throw refuse(
        'AMOUNT_REFUSED',
        `The currency ${requested.currency} differs from the order's ${target.currency}.`,
      );
    }
    const amount = requested?.minor ?? left;
    if (amount > left) {
      throw refuse(
        'AMOUNT_REFUSED',
        `Capture of ${money(amount, target.currency)} is above what is left of the hold, ${money(left, target.currency)}.`,
      );
    }
    return this.followUp(target, 'capture', 'CAPTURE', amount, clientOrderId);
  }

  /** return: cancel on a preauth, reversal on a sale or capture; only on a final successful status. */
  refund(
    target: TxRow,
    requested: { minor: bigint; currency: string } | undefined,
    clientOrderId: string,
  ): TxRow {
    if (target.status !== 'approved') {
      throw refuse(
        'WRONG_STATE',
        `A return needs the order in a final successful status; ${describe(target)} is ${target.status}.`,
      );
    }
    if (target.voided_at !== null)
      throw refuse('WRONG_STATE', `${describe(target)} was voided; there is nothing to return.`);
    if (this.live(target, ['void']).length > 0)
      throw refuse('WRONG_STATE', `A void of ${describe(target)} is in progress.`);
    if (target.kind === 'preauth') {
      if (this.isCancelled(target))
        throw refuse('WRONG_STATE', `The hold of ${describe(target)} is already cancelled.`);
      const left = target.amount_minor - this.capturedMinor(target);
      if (left <= 0n)
        throw refuse(
          'WRONG_STATE',
          `${describe(target)} is fully captured; return the capture instead.`,
        );
      // The operator's PHP library always sends amount and currency on return
      // (Query/ReturnQuery.php): the amount still held is accepted, as a cancel of all of it.
      if (requested && (requested.minor !== left || requested.currency !== target.currency)) {
        throw refuse(
          'AMOUNT_REFUSED',
          `A return on a preauth cancels the whole hold, ${money(left, target.currency)}; send it without amount and currency, or with exactly that amount and currency, not ${money(requested.minor, requested.currency)}.`,
        );
      }
      return this.followUp(target, 'cancel', 'RETURN', left, clientOrderId);
    }
    if (!SALE_LIKE.includes(target.kind) && target.kind !== 'capture') {
      throw refuse(
        'WRONG_STATE',
        `A return applies to a sale, a capture or a preauth; ${describe(target)} cannot be returned.`,
      );
    }
    if (requested && requested.currency !== target.currency) {
      throw refuse(
        'AMOUNT_REFUSED',
        `The currency ${requested.currency} differs from the order's ${target.currency}.`,
      );
    }
    const left = target.amount_minor - this.reversedMinor(target);
    if (left <= 0n) throw refuse('WRONG_STATE', `${describe(target)} is already fully returned.`);
    const amount = requested?.minor ?? left;
    if (amount > left) {
      throw refuse(
        'AMOUNT_REFUSED',
        `A return of ${money(amount, target.currency)} is above what is left to return, ${money(left, target.currency)} (the sum of returns never exceeds the original ${money(target.amount_minor, target.currency)}).`,
      );
    }
    return this.followUp(target, 'reversal', 'RETURN', amount, clientOrderId);
  }

  /** void: only on an approved, unsettled sale or capture; never partial. */
  voidTx(target: TxRow, clientOrderId: string): TxRow {
    if (!SALE_LIKE.includes(target.kind) && target.kind !== 'capture') {
      throw refuse(
        'WRONG_STATE',
        `Void applies to an approved sale or capture; ${describe(target)} cannot be voided${target.kind === 'preauth' ? ' (release a preauth with a return)' : ''}.`,
      );
    }
    if (target.status !== 'approved')
      throw refuse(
        'WRONG_STATE',
        `Only an approved transaction can be voided; ${describe(target)} is ${target.status}.`,
      );
    if (target.voided_at !== null || this.live(target, ['void']).length > 0) {
      throw refuse('WRONG_STATE', `${describe(target)} is already voided.`);
    }
    if (this.isSettled(target))
      throw refuse(
        'WRONG_STATE',
        `${describe(target)} is settled; use a return instead of a void.`,
      );
    if (this.live(target, ['reversal']).length > 0)
      throw refuse('WRONG_STATE', `${describe(target)} has returns; it can no longer be voided.`);
    return this.followUp(target, 'void', 'VOID', target.amount_minor, clientOrderId);
  }

  private followUp(
    target: TxRow,
    kind: TxKind,
    operation: string,
    amount: bigint,
    clientOrderId: string,
  ): TxRow {
    return this.create({
      endpoint_id: target.endpoint_id,
      client_orderid: clientOrderId,
      operation,
      kind,
      parent_id: target.id,
      amount_minor: amount,
      currency: target.currency,
      email: target.email,
      card_bin: target.card_bin,
      card_last4: target.card_last4,
      card_type: target.card_type,
      card_holder: target.card_holder,
      card_exp_month: target.card_exp_month,
      card_exp_year: target.card_exp_year,
    });
  }

  // 3DS ----------------------------------------------------------------------------------

  isWaitingFor3ds(tx: TxRow): boolean {
    return tx.stage === '3ds-method' || tx.stage === '3ds-challenge';
  }

  /** The Method step's result (threeDSCompInd Y, N or U): the challenge follows either way. */
  methodResult(tx: TxRow, compInd: string): TxRow {
    if (tx.stage !== '3ds-method') {
      throw refuse(
        'WRONG_STATE',
        this.isWaitingFor3ds(tx)
          ? `${describe(tx)} is past the 3DS Method step.`
          : `${describe(tx)} is not waiting for 3DS.`,
      );
    }
    return this.store.updateTx(tx.id, { stage: '3ds-challenge', comp_ind: compInd });
  }

  /** The end of the challenge, from the ACS page, a CRes or a PaRes. */
  completeChallenge(tx: TxRow, authenticated: boolean): TxRow {
    if (!this.isWaitingFor3ds(tx))
      throw refuse('WRONG_STATE', `${describe(tx)} is not waiting for 3DS.`);
    return this.queue(
      tx,
      authenticated
        ? {}
        : {
            plan: 'decline',
            decline_code: '05',
            decline_reason: 'Declined: 3-D Secure authentication failed',
          },
    );
  }
}

function planToStatus(plan: TxPlan): TxStatus {
  return plan === 'approve' ? 'approved' : plan === 'decline' ? 'declined' : 'unknown';
}

export function newToken(): string {
  return randomBytes(16).toString('hex');
}
