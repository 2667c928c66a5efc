// Pay-by-link for phone and e-mail orders: a hosted-form link (`SALEFORM`, or `PREAUTHFORM` for
// a hold) made through the one action path. The link is the gateway's `redirect-url`, kept in
// the journal entry's result; the entry is followed like any payment, so the list of links shows
// each one's live status until the customer pays (then it is an order like the others).

import { formatMinor } from '../gateway/amount';
import type { JournalEntry } from '../store/journal/types';
import type { ActionPath, ActionResult } from './action/path';
import { ServiceError } from './errors';
import { describe, moneyOf } from './payouts';

export interface PayLinkRequest {
  profileId: string;
  clientOrderId: string;
  kind: 'sale' | 'preauth';
  amount: string;
  currency: string;
  email: string;
  description: string;
  /** Where the customer's browser goes after paying: the shop's page. */
  returnUrl: string;
}

export interface PayLinkView {
  clientOrderId: string;
  orderId: string | null;
  kind: 'sale' | 'preauth';
  amount: string | null;
  currency: string | null;
  email: string | null;
  description: string | null;
  url: string | null;
  createdBy: string;
  createdAt: string;
  /** open: waiting for the customer; paid; failed (declined, expired, refused); unsure: the answer was lost. */
  state: 'open' | 'paid' | 'failed' | 'unsure';
  status: string | null;
  errorMessage: string | null;
}

const OPERATION = { sale: 'SALEFORM', preauth: 'PREAUTHFORM' } as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function payLinkView(e: JournalEntry): PayLinkView {
  const state: PayLinkView['state'] =
    e.state === 'final'
      ? e.status === 'approved'
        ? 'paid'
        : 'failed'
      : e.state === 'refused'
        ? 'failed'
        : e.state === 'unknown' || e.state === 'sending'
          ? 'unsure'
          : 'open';
  return {
    clientOrderId: e.clientOrderId,
    orderId: e.orderId,
    kind: e.operation === 'PREAUTHFORM' ? 'preauth' : 'sale',
    amount: e.amountMinor === null ? null : formatMinor(e.amountMinor),
    currency: e.currency,
    email: e.email,
    description: e.note,
    url: e.result['redirect-url'] ?? null,
    createdBy: e.operator,
    createdAt: e.createdAt,
    state,
    status: e.status,
    errorMessage: e.errorMessage,
  };
}

export class PayLinkService {
  constructor(private readonly path: ActionPath) {}

  async create(request: PayLinkRequest): Promise<ActionResult> {
    const operation = OPERATION[request.kind];
    const money = moneyOf(request.amount, request.currency);
    const description = describe(request.description, 'order');
    const email = request.email.trim();
    if (!EMAIL.test(email))
      throw new ServiceError(
        'NOT_ALLOWED',
        'Write the customer’s e-mail address, for example anna@example.com; the gateway sends the receipt there.',
        'email',
      );
    const returnUrl = request.returnUrl.trim();
    if (!/^https?:\/\/\S+$/.test(returnUrl))
      throw new ServiceError(
        'NOT_ALLOWED',
        'Write the address of the shop page the customer returns to after paying, starting with https://.',
        'returnUrl',
      );
    return this.path.run({
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      mismatch: (existing) =>
        existing.operation !== operation || existing.amountMinor !== money.minor
          ? 'This action id was used for another link; open a new one.'
          : undefined,
      plan: () => ({
        operation,
        fields: {
          client_orderid: request.clientOrderId.trim(),
          amount: formatMinor(money.minor),
          currency: money.currency,
          email,
          order_desc: description,
          redirect_url: returnUrl,
        },
        amountMinor: money.minor,
        currency: money.currency,
        email,
        note: description,
      }),
    });
  }

  /** The address of one link of the profile, for copying (main holds the clipboard). */
  async linkOf(profileId: string, clientOrderId: string): Promise<string> {
    const entry = await this.path.journal.get(clientOrderId);
    const url = entry?.profileId === profileId ? entry.result['redirect-url'] : undefined;
    if (!url || !entry || !Object.values(OPERATION).includes(entry.operation as never))
      throw new ServiceError(
        'NOT_ALLOWED',
        `No payment link ${clientOrderId} of this profile is known.`,
      );
    return url;
  }

  /** The profile's links, newest first: open ones, and those paid or failed lately. */
  async list(profileId: string, limit = 100): Promise<PayLinkView[]> {
    const views: PayLinkView[] = [];
    for (const operation of Object.values(OPERATION)) {
      const page = await this.path.journal.search({ operation, profileId }, 0, limit);
      views.push(...page.rows.map(payLinkView));
    }
    return views.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)).slice(0, limit);
  }
}
