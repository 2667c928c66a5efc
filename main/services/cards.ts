// Card references and what is done with them: save the card of an approved order (`CARDREF`,
// or `CARDREF_V4` when the profile has an RSA key), read a reference (`CARDINFO`), and charge
// it without the cardholder present (`REBILL`). Saving and charging go through the one action
// path; reading is a plain read, nothing is journaled.

import { formatMinor } from '../gateway/amount';
import type { ActionPath, ActionResult } from './action/path';
import type { Connections } from './connection';
import { ServiceError } from './errors';
import { describe, moneyOf } from './payouts';

export interface CardInfoView {
  cardRefId: string;
  brand: string | null;
  bin: string | null;
  /** First six and last four; the full number never reaches Paydesk. */
  masked: string | null;
  name: string | null;
  expMonth: string | null;
  expYear: string | null;
  /** The expiry month has ended. */
  expired: boolean;
}

const CARD_REF = /^\d{1,18}$/;

function cardRefIdOf(text: string): string {
  const id = text.trim();
  if (!CARD_REF.test(id))
    throw new ServiceError(
      'NOT_ALLOWED',
      'A card reference is the number the gateway gave when the card was saved, for example 1000007.',
      'cardRefId',
    );
  return id;
}

/** True when the card's expiry month ended before `now`. */
export function expiredAt(expMonth: string | undefined, expYear: string | undefined, now: Date) {
  const month = Number(expMonth);
  let year = Number(expYear);
  if (!month || !year) return false;
  if (year < 100) year += 2000;
  return Date.UTC(year, month, 1) <= now.getTime();
}

export class CardService {
  constructor(
    private readonly path: ActionPath,
    private readonly connections: Connections,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Saves the card of an approved order as a card reference; the reference is in the result. */
  saveCard(request: {
    profileId: string;
    clientOrderId: string;
    orderid: string;
  }): Promise<ActionResult> {
    const orderid = request.orderid.trim();
    return this.path.run({
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      mismatch: (existing) =>
        !existing.operation.startsWith('CARDREF') || existing.targetOrderId !== orderid
          ? `This action id was used for a ${existing.operation} of order ${existing.targetOrderId ?? ''}; open a new action.`
          : undefined,
      before: async (client, profile) => ({
        status: await client.status({ orderid }),
        v4: Boolean(profile.keyFingerprint),
      }),
      // The order is held while the rule reads its entries: one save of a card, whichever desk.
      order: () => ({ orderId: orderid, doing: 'saving the card of' }),
      plan: ({ status, v4 }, entriesOfOrder) => {
        if (status.status !== 'approved' || !status.card.bin)
          throw new ServiceError(
            'NOT_ALLOWED',
            `Only the card of an approved payment can be saved; order ${orderid} is ${status.status}${status.card.bin ? '' : ' and carries no card'}.`,
          );
        if (status.card.cardRefId)
          throw new ServiceError(
            'NOT_ALLOWED',
            `This card is already saved as card reference ${status.card.cardRefId}.`,
          );
        const earlier = entriesOfOrder.find(
          (e) => e.operation.startsWith('CARDREF') && e.state !== 'refused',
        );
        if (earlier)
          throw new ServiceError(
            earlier.state === 'final' ? 'NOT_ALLOWED' : 'PENDING',
            earlier.state === 'final'
              ? `This card was already saved${earlier.result['card-ref-id'] ? ` as card reference ${earlier.result['card-ref-id']}` : ''}.`
              : 'This card is being saved; wait for the gateway’s answer.',
          );
        return {
          operation: v4 ? 'CARDREF_V4' : 'CARDREF',
          fields: { client_orderid: request.clientOrderId.trim(), orderid },
          targetOrderId: orderid,
        };
      },
    });
  }

  /**
   * The card reference of an order: the one its status already shows, or one saved now under
   * `clientOrderId` (a retry with the same id resumes that save and never saves twice).
   */
  async cardRefForOrder(request: {
    profileId: string;
    clientOrderId: string;
    orderid: string;
  }): Promise<{ cardRefId?: string; entry?: ActionResult['entry'] }> {
    if (!(await this.path.journal.get(request.clientOrderId.trim()))) {
      const { client } = await this.connections.clientFor(request.profileId);
      const status = await client.status({ orderid: request.orderid.trim() });
      if (status.card.cardRefId) return { cardRefId: status.card.cardRefId };
    }
    return { entry: (await this.saveCard(request)).entry };
  }

  /** Brand, BIN, masked number, name and expiry of a card reference. */
  async info(profileId: string, cardRefId: string): Promise<CardInfoView> {
    const id = cardRefIdOf(cardRefId);
    const { client } = await this.connections.clientFor(profileId);
    const answer = await client.call('CARDINFO', { cardrefid: id });
    return {
      cardRefId: answer.fields['card-ref-id'] ?? id,
      brand: answer.fields['card-type'] ?? null,
      bin: answer.bin ?? null,
      masked:
        answer.bin && answer.lastFourDigits ? `${answer.bin}******${answer.lastFourDigits}` : null,
      name: answer.cardPrintedName ?? null,
      expMonth: answer.expireMonth ?? null,
      expYear: answer.expireYear ?? null,
      expired: expiredAt(answer.expireMonth, answer.expireYear, this.now()),
    };
  }

  /** Charges a card reference; followed to final like any payment, then an order like the others. */
  async rebill(request: {
    profileId: string;
    clientOrderId: string;
    cardRefId: string;
    amount: string;
    currency: string;
    description: string;
  }): Promise<ActionResult> {
    const cardRefId = cardRefIdOf(request.cardRefId);
    const money = moneyOf(request.amount, request.currency);
    const description = describe(request.description, 'charge');
    return this.path.run({
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      mismatch: (existing) =>
        existing.operation !== 'REBILL' ||
        existing.amountMinor !== money.minor ||
        existing.summary.cardrefid !== cardRefId
          ? `This action id was used for another charge; open a new one.`
          : undefined,
      plan: () => ({
        operation: 'REBILL',
        fields: {
          client_orderid: request.clientOrderId.trim(),
          cardrefid: cardRefId,
          amount: formatMinor(money.minor),
          currency: money.currency,
          order_desc: description,
        },
        amountMinor: money.minor,
        currency: money.currency,
        note: description,
      }),
    });
  }
}
