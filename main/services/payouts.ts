// Payouts: one step (v2 `PAYOUT`, OAuth HMAC-SHA1) or two (v4 `PAYOUT_V4_CHECK`, later
// `PAYOUT_V4_PAY`, RSA-SHA256). All go through the one action path (action-path.ts). A card
// number typed as a destination is sent to the gateway and nowhere else: the journal keeps it
// masked, and nothing returned to the screens carries it.
//
// Paying a checked payout twice is impossible from the app: the pay holds the payout's order
// (port.claim: an IMMEDIATE transaction on SQLite, the order's lock on a team's PostgreSQL) while
// its rule reads the pays of that payout and its journal entry is written, and refuses while
// another pay of the same payout is in flight or done, from any desk. Only a pay that provably did nothing (refused, never sent) lets
// another one through. A profile may ask for four eyes: the pay by someone other than who
// checked it (payoutFourEyes), checked here and, on a team journal, by the database too.

import { localTimeWithOffset } from '../../common/time';
import { formatMinor, parseAmount } from '../gateway/amount';
import { IN_FLIGHT } from '../store/journal/types';
import type { JournalEntry } from '../store/journal/port';
import { maskPan } from '../store/journal/redact';
import type { ActionPath, ActionResult } from './action/path';
import { ServiceError } from './errors';
import { refuseCardData } from './free-text';
import { CHECKED } from './action/outcomes';

export type PayoutDestination =
  | { kind: 'card'; cardNumber: string }
  | { kind: 'card-ref'; cardRefId: string }
  | { kind: 'bank'; accountNumber: string; bankName: string; bic: string }
  | { kind: 'phone'; phone: string };

export interface PayoutRequest {
  profileId: string;
  clientOrderId: string;
  destination: PayoutDestination;
  receiverFirstName?: string;
  receiverLastName?: string;
  amount: string;
  currency: string;
  purpose?: string;
  description: string;
}

export interface CheckedPayoutView {
  /** The check's client_orderid: name it to pay. */
  clientOrderId: string;
  orderId: string | null;
  amount: string | null;
  currency: string | null;
  destination: string;
  description: string | null;
  checkedBy: string;
  checkedAt: string;
  /** checking: the check is not settled yet; checked: waiting to be paid; paying: a pay is in flight. */
  state: 'checking' | 'checked' | 'paying';
}

/** The sentence for a v4 operation on a profile without an RSA key: what to do, and where. */
export const noRsaKey = (what: string) =>
  `${what} signed with the profile’s RSA key, and this profile has none. ` +
  'Open Keys, generate or import a key, and give public_key.pem to the gateway operator; then try again.';
export const NO_RSA_KEY = noRsaKey('Two-step payouts are');

/** The destination as the journal and the screens may show it: card numbers masked. */
export function destinationLabel(fields: Readonly<Record<string, string>>): string {
  if (fields['destination-card-no']) {
    const value = fields['destination-card-no'];
    return `card ${value.includes('*') ? value : maskPan(value)}`;
  }
  if (fields['destination-card-ref-id'])
    return `card reference ${fields['destination-card-ref-id']}`;
  if (fields.account_number)
    return `account ****${fields.account_number.slice(-4)}${fields.bank_name ? ` at ${fields.bank_name}` : ''}${fields.bank_bic ? ` (${fields.bank_bic})` : ''}`;
  if (fields.receiver_phone) return `phone ****${fields.receiver_phone.slice(-4)} (SBP)`;
  return 'no destination';
}

function destinationFields(d: PayoutDestination): Record<string, string> {
  switch (d.kind) {
    case 'card': {
      const digits = d.cardNumber.replace(/[\s-]/g, '');
      if (!digits)
        throw new ServiceError(
          'NOT_ALLOWED',
          'Type the card number that receives the payout.',
          'cardNumber',
        );
      return { 'destination-card-no': digits };
    }
    case 'card-ref':
      if (!/^\d{1,18}$/.test(d.cardRefId.trim()))
        throw new ServiceError(
          'NOT_ALLOWED',
          'A card reference is the number the gateway gave when the card was saved, for example 1000007.',
          'cardRefId',
        );
      return { 'destination-card-ref-id': d.cardRefId.trim() };
    case 'bank': {
      const account = d.accountNumber.replace(/\s/g, '');
      if (!/^[A-Za-z0-9]{6,34}$/.test(account))
        throw new ServiceError(
          'NOT_ALLOWED',
          'Write the account number (or IBAN) with letters and digits only, 6 to 34 of them.',
          'accountNumber',
        );
      if (!d.bankName.trim())
        throw new ServiceError('NOT_ALLOWED', 'Write the name of the receiving bank.', 'bankName');
      if (!/^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/.test(d.bic.trim()))
        throw new ServiceError(
          'NOT_ALLOWED',
          'The BIC is 8 or 11 letters and digits, for example DEUTDEFF or DEUTDEFF500.',
          'bic',
        );
      return {
        account_number: account,
        bank_name: d.bankName.trim(),
        bank_bic: d.bic.trim().toUpperCase(),
      };
    }
    case 'phone': {
      const phone = d.phone.replace(/[\s()-]/g, '');
      if (!/^\+?\d{7,15}$/.test(phone))
        throw new ServiceError(
          'NOT_ALLOWED',
          'Write the phone number with its country code, digits only, for example +447700900123.',
          'phone',
        );
      return { receiver_phone: phone };
    }
  }
}

/** Amount and currency checked, with a sentence that says what to fix. */
export function moneyOf(amount: string, currency: string): { minor: bigint; currency: string } {
  const { minor } = parseAmount(amount, 'amount');
  if (minor <= 0n) throw new ServiceError('AMOUNT', 'The amount must be more than zero.', 'amount');
  const code = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code))
    throw new ServiceError(
      'AMOUNT',
      'The currency is the three-letter code, for example EUR.',
      'currency',
    );
  return { minor, currency: code };
}

export function describe(description: string, what: string): string {
  const text = description.trim();
  // A description is stored, exported and sent: card data in it is refused (free-text.ts).
  refuseCardData({ description: text });
  if (!text)
    throw new ServiceError(
      'REASON',
      `Describe the ${what}: the gateway and the auditors read it.`,
      'description',
    );
  return text;
}

export class PayoutService {
  constructor(private readonly path: ActionPath) {}

  /** One step: the gateway pays at once (v2 PAYOUT). */
  send(request: PayoutRequest): Promise<ActionResult> {
    return this.register('PAYOUT', request);
  }

  /** Step one of two: the gateway validates and registers the payout; nothing is paid yet. */
  check(request: PayoutRequest): Promise<ActionResult> {
    return this.register('PAYOUT_V4_CHECK', request);
  }

  private async register(
    operation: 'PAYOUT' | 'PAYOUT_V4_CHECK',
    request: PayoutRequest,
  ): Promise<ActionResult> {
    const money = moneyOf(request.amount, request.currency);
    const description = describe(request.description, 'payout');
    const fields: Record<string, string> = {
      client_orderid: request.clientOrderId.trim(),
      amount: formatMinor(money.minor),
      currency: money.currency,
      ...destinationFields(request.destination),
      order_desc: description,
    };
    const first = request.receiverFirstName?.trim();
    const last = request.receiverLastName?.trim();
    if ((request.destination.kind === 'bank' || request.destination.kind === 'phone') && !last)
      throw new ServiceError(
        'NOT_ALLOWED',
        'Write the receiver’s name as the bank knows it.',
        'receiverLastName',
      );
    if (first) fields.receiver_first_name = first;
    if (last) fields.receiver_last_name = last;
    refuseCardData({
      purpose: request.purpose,
      receiverFirstName: first,
      receiverLastName: last,
    });
    const purpose = request.purpose?.trim();
    if (purpose) fields.purpose = purpose;
    return this.path.run({
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      mismatch: (existing) =>
        existing.operation !== operation || existing.amountMinor !== money.minor
          ? `This action id was used for a ${existing.operation} of ${existing.amountMinor === null ? '' : formatMinor(existing.amountMinor)} ${existing.currency ?? ''}; open a new payout.`
          : undefined,
      before: (_client, profile) => {
        if (operation === 'PAYOUT_V4_CHECK' && !profile.keyFingerprint)
          throw new ServiceError('NO_SECRET', NO_RSA_KEY);
        return Promise.resolve();
      },
      plan: () => ({
        operation,
        fields,
        amountMinor: money.minor,
        currency: money.currency,
        note: description,
        ...(purpose ? { reason: purpose } : {}),
      }),
    });
  }

  /** Checked payouts not paid yet, oldest first: none is forgotten. */
  async toPay(profileId: string): Promise<CheckedPayoutView[]> {
    const journal = this.path.journal;
    const views: CheckedPayoutView[] = [];
    const checks: JournalEntry[] = [];
    for await (const check of journal.iterate({ operation: 'PAYOUT_V4_CHECK', profileId }))
      checks.push(check);
    for (const check of checks) {
      const waiting = IN_FLIGHT.includes(check.state);
      if (!waiting && !(check.state === 'final' && check.status === CHECKED)) continue;
      const pays = check.orderId ? livePays(await journal.forTarget(check.orderId)) : [];
      if (pays.some((p) => p.state === 'final')) continue;
      views.push({
        clientOrderId: check.clientOrderId,
        orderId: check.orderId,
        amount: check.amountMinor === null ? null : formatMinor(check.amountMinor),
        currency: check.currency,
        destination: destinationLabel(check.summary),
        description: check.note,
        checkedBy: check.operator,
        checkedAt: check.createdAt,
        state: waiting ? 'checking' : pays.length > 0 ? 'paying' : 'checked',
      });
    }
    return views.reverse();
  }

  /** Step two: pays a checked payout, once. */
  async pay(request: {
    profileId: string;
    clientOrderId: string;
    checkClientOrderId: string;
  }): Promise<ActionResult> {
    const journal = this.path.journal;
    const check = await journal.get(request.checkClientOrderId.trim());
    return this.path.run({
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      mismatch: (existing) =>
        existing.operation !== 'PAYOUT_V4_PAY' || existing.targetOrderId !== check?.orderId
          ? `This action id was used for a ${existing.operation} of order ${existing.targetOrderId ?? ''}; open a new action.`
          : undefined,
      before: async (_client, profile) => {
        if (!profile.keyFingerprint) throw new ServiceError('NO_SECRET', NO_RSA_KEY);
        // Read again now: a check only moves forward, so once final and checked it stays so.
        return { checked: await journal.get(request.checkClientOrderId.trim()), profile };
      },
      // The payout's order is held while its pays are counted and this one is written.
      order: ({ checked }) =>
        checked?.orderId ? { orderId: checked.orderId, doing: 'paying out' } : undefined,
      plan: ({ checked, profile }, entriesOfOrder) => {
        if (
          !checked ||
          checked.operation !== 'PAYOUT_V4_CHECK' ||
          checked.profileId !== request.profileId
        )
          throw new ServiceError(
            'NOT_ALLOWED',
            `No checked payout ${request.checkClientOrderId} of this profile is in the journal.`,
          );
        if (checked.state !== 'final' || checked.status !== CHECKED || !checked.orderId)
          throw new ServiceError(
            checked.state === 'final' || checked.state === 'refused' ? 'NOT_ALLOWED' : 'PENDING',
            checked.state === 'final' || checked.state === 'refused'
              ? `This payout check ended ${checked.status ?? checked.state}${checked.errorMessage ? ` (${checked.errorMessage})` : ''}; there is nothing to pay.`
              : 'The gateway has not confirmed this check yet; pay it once it shows as checked.',
          );
        if (profile.payoutFourEyes && checked.operator === this.path.operator)
          throw new ServiceError('NOT_ALLOWED', fourEyesMessage(checked.operator, profile.name));
        const earlier = livePays(entriesOfOrder)[0];
        if (earlier)
          throw new ServiceError(
            earlier.state === 'final' ? 'NOT_ALLOWED' : 'PENDING',
            earlier.state === 'final'
              ? `This payout was already paid by ${earlier.operator} at ${localTimeWithOffset(earlier.createdAt)} (${earlier.status ?? 'final'}); a payout is paid once.`
              : `${earlier.operator} is already paying this payout (since ${localTimeWithOffset(earlier.createdAt)}); it is paid once. Wait for its outcome.`,
          );
        return {
          operation: 'PAYOUT_V4_PAY',
          // The pay names the payout the check registered: the check's client_orderid and orderid.
          fields: { client_orderid: checked.clientOrderId, orderid: checked.orderId },
          targetOrderId: checked.orderId,
          ...(checked.amountMinor !== null ? { amountMinor: checked.amountMinor } : {}),
          ...(checked.currency ? { currency: checked.currency } : {}),
          ...(checked.note ? { note: checked.note } : {}),
        };
      },
    });
  }
}

/**
 * The refusal of a pay by the person who checked it, on a profile with four eyes; a team's
 * database says the same (team migration 4).
 */
export const fourEyesMessage = (checkedBy: string, profileName: string) =>
  `You (${checkedBy}) checked this payout, and the profile "${profileName}" wants payouts paid by someone other than who checked them. Ask another finance colleague to pay it.`;

/** Pays of a payout (among the entries acting on its order) that did, or may have done, something. */
function livePays(entriesOfOrder: readonly JournalEntry[]): JournalEntry[] {
  return entriesOfOrder.filter((e) => e.operation === 'PAYOUT_V4_PAY' && e.state !== 'refused');
}
