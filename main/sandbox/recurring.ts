// Recurring payments: a schedule (period and interval) on a card reference, charged when due on
// the sandbox clock. Due times are computed from the first one (the anchor), so a subscription
// started on 31 January is charged on the last day of February and on 31 March, never drifting.

import { addPeriods } from '../gateway/schedule';
import { refuse } from './codes';
import type { CardRefRow, RecurringRow } from './db';
import type { Engine } from './engine';

/** A sandbox left off for years must not spend minutes catching up on one tick. */
const MAX_CHARGES_PER_RUN = 500;

export type Period = RecurringRow['period'];

// The schedule rule is the gateway's, shared with Paydesk's preview (main/gateway/schedule.ts).
export { addPeriods };

/** `start-date` as YYYY-MM-DD, midnight UTC; today or later on the sandbox clock. */
export function parseStartDate(text: string, nowMs: number): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const at = match
    ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
    : Number.NaN;
  if (!match || Number.isNaN(at) || new Date(at).getUTCDate() !== Number(match[3])) {
    throw refuse(
      'INVALID_FIELD',
      `start-date must be a date written YYYY-MM-DD, for example 2030-01-31; got ${JSON.stringify(text)}.`,
    );
  }
  const today = new Date(nowMs);
  if (at < Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) {
    throw refuse(
      'INVALID_FIELD',
      `start-date ${text} is in the past; the first charge must be today or later.`,
    );
  }
  return at;
}

/** True when the card's expiry month ended before `nowMs`. */
export function cardExpired(
  ref: Pick<CardRefRow, 'card_exp_month' | 'card_exp_year'>,
  nowMs: number,
): boolean {
  const month = Number(ref.card_exp_month);
  const year = Number(ref.card_exp_year);
  if (!month || !year) return false;
  return Date.UTC(year, month, 1) <= nowMs;
}

/** Makes one `recurring` transaction for every charge that has come due. Returns how many. */
export function chargeDueRecurring(engine: Engine): number {
  const { store } = engine;
  let made = 0;
  for (const plan of store.dueRecurring(engine.now())) {
    let charges = plan.charges;
    let repeatsLeft = plan.repeats_left;
    let nextDue = Number(plan.next_due_at);
    const ref = store.cardRef(plan.endpoint_id, plan.card_ref_id);
    store.atomically(() => {
      while (
        nextDue <= engine.now() &&
        (repeatsLeft === null || repeatsLeft > 0n) &&
        made < MAX_CHARGES_PER_RUN
      ) {
        charges += 1n;
        const expired = ref ? cardExpired(ref, nextDue) : true;
        engine.create({
          endpoint_id: plan.endpoint_id,
          client_orderid: `${plan.client_orderid}/${charges}`,
          operation: 'CREATE_RP_V4',
          kind: 'recurring',
          amount_minor: plan.amount_minor,
          currency: plan.currency,
          card_ref_id: plan.card_ref_id,
          card_bin: ref?.card_bin ?? null,
          card_last4: ref?.card_last4 ?? null,
          card_type: ref?.card_type ?? null,
          card_holder: ref?.card_holder ?? null,
          card_exp_month: ref?.card_exp_month ?? null,
          card_exp_year: ref?.card_exp_year ?? null,
          server_callback_url: plan.server_callback_url,
          ...(expired
            ? {
                plan: 'decline' as const,
                decline_code: '54',
                decline_reason: 'Declined: expired card',
              }
            : {}),
        });
        made++;
        if (repeatsLeft !== null) repeatsLeft -= 1n;
        nextDue = addPeriods(
          Number(plan.anchor_at),
          plan.period,
          Number(plan.interval),
          Number(charges),
        );
      }
      store.updateRecurring(plan.id, {
        charges,
        repeats_left: repeatsLeft,
        next_due_at: BigInt(nextDue),
      });
    });
  }
  return made;
}
