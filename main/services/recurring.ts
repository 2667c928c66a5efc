// Recurring setup: `CREATE_RP_V4` on a card reference, or on an approved order whose card is
// saved first. Before anything is sent the form is checked with sentences that say what to
// change, and the schedule it will make is shown: the first charges and their dates, by the
// gateway's rule (main/gateway/schedule.ts, the one the sandbox charges by).
//
// A subscription has no `status` to ask: when its answer is lost the journal entry stays
// unsettled and says so (outcomes.ts), and nothing is sent again.

import { formatMinor } from '../gateway/amount';
import { addPeriods, type SchedulePeriod } from '../gateway/schedule';
import type { ActionPath, ActionResult } from './action/path';
import type { CardService } from './cards';
import { ServiceError } from './errors';
import { describe, moneyOf, noRsaKey } from './payouts';

export interface RecurringInput {
  amount: string;
  currency: string;
  period: string;
  interval: string;
  /** YYYY-MM-DD; empty: the first charge is one interval from now. */
  startDate?: string;
  /** Empty: until cancelled. */
  repeats?: string;
}

export interface RecurringRequest extends RecurringInput {
  profileId: string;
  clientOrderId: string;
  /** The card reference to charge, or the approved order whose card is saved first. */
  cardRefId?: string;
  orderid?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  description: string;
}

export interface SchedulePreview {
  amount: string;
  currency: string;
  /** The first charges (at most `shown`), dates in UTC. */
  charges: { n: number; date: string }[];
  /** How many charges in all; null: until cancelled. */
  total: number | null;
  /** A sentence: "Every 2 months on day 31 (the last day in shorter months), 12 charges." */
  summary: string;
}

const PERIODS: readonly SchedulePeriod[] = ['day', 'week', 'month'];
const SHOWN = 6;

interface CheckedSchedule {
  minor: bigint;
  currency: string;
  period: SchedulePeriod;
  interval: number;
  startDate?: string;
  anchorMs: number;
  repeats: number | null;
}

/** Checks a schedule as the form is filled; each refusal names the field and what to change. */
export function checkSchedule(input: RecurringInput, now: Date): CheckedSchedule {
  const money = moneyOf(input.amount, input.currency);
  const period = input.period.trim() as SchedulePeriod;
  if (!PERIODS.includes(period))
    throw new ServiceError(
      'NOT_ALLOWED',
      `The gateway knows the periods day, week and month; choose one of them${input.period.trim() ? ` instead of "${input.period.trim()}"` : ''}.`,
      'period',
    );
  const interval = Number(input.interval.trim());
  if (!/^\d+$/.test(input.interval.trim()) || interval < 1 || interval > 9999)
    throw new ServiceError(
      'NOT_ALLOWED',
      `The interval is how many ${period}s lie between two charges: a whole number, 1 or more${interval === 0 && input.interval.trim() !== '' ? ' (0 would charge again and again at once)' : ''}.`,
      'interval',
    );
  const repeatsText = input.repeats?.trim() ?? '';
  let repeats: number | null = null;
  if (repeatsText) {
    repeats = Number(repeatsText);
    if (!/^\d+$/.test(repeatsText) || repeats < 1 || repeats > 9999)
      throw new ServiceError(
        'NOT_ALLOWED',
        'The number of charges is a whole number from 1 to 9999; leave it empty to charge until the subscription is cancelled.',
        'repeats',
      );
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const startText = input.startDate?.trim() ?? '';
  let anchorMs: number;
  if (startText) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(startText);
    const at = match
      ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
      : Number.NaN;
    if (!match || Number.isNaN(at) || new Date(at).getUTCDate() !== Number(match[3]))
      throw new ServiceError(
        'NOT_ALLOWED',
        'Write the start date as YYYY-MM-DD, for example 2030-01-31.',
        'startDate',
      );
    if (at < today)
      throw new ServiceError(
        'NOT_ALLOWED',
        `The start date ${startText} is in the past; choose today (${new Date(today).toISOString().slice(0, 10)}) or a later day.`,
        'startDate',
      );
    anchorMs = at;
  } else {
    // The gateway's rule without start-date: the first charge is one interval after creation.
    anchorMs = addPeriods(now.getTime(), period, interval, 1);
  }
  return {
    minor: money.minor,
    currency: money.currency,
    period,
    interval,
    ...(startText ? { startDate: startText } : {}),
    anchorMs,
    repeats,
  };
}

/** The charges a subscription will make, as the gateway will date them. */
export function previewSchedule(input: RecurringInput, now: Date): SchedulePreview {
  const s = checkSchedule(input, now);
  const count = s.repeats === null ? SHOWN : Math.min(s.repeats, SHOWN);
  const charges = Array.from({ length: count }, (_, i) => ({
    n: i + 1,
    date: new Date(addPeriods(s.anchorMs, s.period, s.interval, i)).toISOString().slice(0, 10),
  }));
  const every = s.interval === 1 ? `Every ${s.period}` : `Every ${s.interval} ${s.period}s`;
  const day = new Date(s.anchorMs).getUTCDate();
  const onDay =
    s.period === 'month'
      ? ` on day ${day}${day > 28 ? ' (the last day in shorter months)' : ''}`
      : '';
  const times =
    s.repeats === null ? ', until cancelled' : `, ${s.repeats} charge${s.repeats === 1 ? '' : 's'}`;
  return {
    amount: formatMinor(s.minor),
    currency: s.currency,
    charges,
    total: s.repeats,
    summary: `${every}${onDay}${times}, starting ${charges[0]?.date ?? ''}.`,
  };
}

export class RecurringService {
  constructor(
    private readonly path: ActionPath,
    private readonly cards: CardService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  preview(input: RecurringInput): SchedulePreview {
    return previewSchedule(input, this.now());
  }

  /**
   * Creates the subscription. On an order, its card is saved first under an action id made from
   * this one, so a retry finds that card reference instead of saving the card again.
   */
  async create(request: RecurringRequest): Promise<ActionResult & { cardRefId: string }> {
    const schedule = checkSchedule(request, this.now());
    const description = describe(request.description, 'subscription');
    let cardRefId = request.cardRefId?.trim() ?? '';
    if (!cardRefId) {
      const orderid = request.orderid?.trim();
      if (!orderid)
        throw new ServiceError(
          'NOT_ALLOWED',
          'Give the card reference to charge, or the orderid of an approved payment whose card will be saved first.',
          'cardRefId',
        );
      cardRefId = await this.cardRefOfOrder(request, orderid);
    } else if (!/^\d{1,18}$/.test(cardRefId)) {
      throw new ServiceError(
        'NOT_ALLOWED',
        'A card reference is the number the gateway gave when the card was saved, for example 1000007.',
        'cardRefId',
      );
    }
    const fields: Record<string, string> = {
      client_orderid: request.clientOrderId.trim(),
      cardrefid: cardRefId,
      amount: formatMinor(schedule.minor),
      currency: schedule.currency,
      period: schedule.period,
      interval: String(schedule.interval),
      order_desc: description,
    };
    if (schedule.startDate) fields['start-date'] = schedule.startDate;
    if (schedule.repeats !== null) fields['repeats-number'] = String(schedule.repeats);
    if (request.email?.trim()) fields.email = request.email.trim();
    if (request.firstName?.trim()) fields.first_name = request.firstName.trim();
    if (request.lastName?.trim()) fields.last_name = request.lastName.trim();
    const result = await this.path.run({
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      mismatch: (existing) =>
        existing.operation !== 'CREATE_RP_V4' || existing.amountMinor !== schedule.minor
          ? 'This action id was used for another operation; open a new subscription.'
          : undefined,
      before: (_client, profile) => {
        if (!profile.keyFingerprint)
          throw new ServiceError('NO_SECRET', noRsaKey('Subscriptions are'));
        return Promise.resolve();
      },
      plan: () => ({
        operation: 'CREATE_RP_V4',
        fields,
        amountMinor: schedule.minor,
        currency: schedule.currency,
        note: description,
        ...(request.email?.trim() ? { email: request.email.trim() } : {}),
      }),
    });
    return { ...result, cardRefId };
  }

  private async cardRefOfOrder(request: RecurringRequest, orderid: string): Promise<string> {
    // Derived from the subscription's action id: a retry resumes the same card save.
    const { entry, cardRefId } = await this.cards.cardRefForOrder({
      profileId: request.profileId,
      clientOrderId: `${request.clientOrderId.trim()}-card`,
      orderid,
    });
    const ref = cardRefId ?? entry?.result['card-ref-id'];
    if (!ref)
      throw new ServiceError(
        'UNSETTLED',
        'The card of this order is being saved and the gateway has not given its card reference yet; try again in a moment.',
      );
    return ref;
  }
}
