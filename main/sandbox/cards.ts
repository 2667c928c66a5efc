// Outcomes by CVV2, as the operator's public sandbox chooses them (gateway-notes.md), and what
// the sandbox keeps of a card: BIN, last four, brand, holder and expiry. The full number and
// the CVV2 are never stored, even here, so a sandbox database is safe to share.

import type { TxPlan } from './db';

export interface CardOutcome {
  plan: TxPlan;
  /** A 3DS challenge comes first (CVV2 321). */
  threeDs: boolean;
  declineCode?: string;
  declineReason?: string;
}

/** The decline reasons, with ISO 8583 response codes as issuers report them. */
const DECLINES: Record<string, { code: string; reason: string }> = {
  '101': { code: '54', reason: 'Declined: expired card' },
  '116': { code: '51', reason: 'Declined: insufficient funds' },
  '119': { code: '57', reason: 'Declined: transaction not permitted to cardholder' },
  '209': { code: '04', reason: 'Declined: pick up card' },
};
const OTHER_DECLINE = { code: '05', reason: 'Declined: do not honor' };

export const TEST_CVV2 = {
  approved: ['123', '1234'],
  threeDsThenApproved: '321',
  approvedWithout3ds: '111',
  unknown: '217',
  declined: Object.keys(DECLINES),
} as const;

/**
 * The outcome for a card payment. `allow3ds` is false where no cardholder is present (rebill,
 * recurring charges): 321 is then simply approved.
 */
export function outcomeForCvv2(cvv2: string | undefined, allow3ds = true): CardOutcome {
  if (cvv2 === undefined) return { plan: 'approve', threeDs: false };
  if (cvv2 === '123' || cvv2 === '1234' || cvv2 === '111')
    return { plan: 'approve', threeDs: false };
  if (cvv2 === '321') return { plan: 'approve', threeDs: allow3ds };
  if (cvv2 === '217') return { plan: 'unknown', threeDs: false };
  const decline = DECLINES[cvv2] ?? OTHER_DECLINE;
  return {
    plan: 'decline',
    threeDs: false,
    declineCode: decline.code,
    declineReason: decline.reason,
  };
}

/** The brand by BIN range, enough to show a believable card type. */
export function cardBrand(pan: string): string {
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if (pan.startsWith('4')) return 'VISA';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMEX';
  if (four >= 2200 && four <= 2204) return 'MIR';
  if (pan.startsWith('6011') || pan.startsWith('65')) return 'DISCOVER';
  if (two === 35) return 'JCB';
  return 'UNKNOWN';
}

export interface StoredCard {
  card_bin: string;
  card_last4: string;
  card_type: string;
  card_holder: string;
  card_exp_month: string;
  card_exp_year: string;
}

export function storedCard(fields: Readonly<Record<string, string>>): StoredCard | undefined {
  const pan = fields.credit_card_number;
  if (!pan) return undefined;
  return {
    card_bin: pan.slice(0, 6),
    card_last4: pan.slice(-4),
    card_type: cardBrand(pan),
    card_holder: fields.card_printed_name ?? '',
    card_exp_month: fields.expire_month ?? '',
    card_exp_year: fields.expire_year ?? '',
  };
}

/** 411111******1111: what a receipt or a lookup screen may show of a card number. */
export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;
}
