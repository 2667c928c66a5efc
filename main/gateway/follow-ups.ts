// The fields of a capture, return or void, in the one form that every reading of the spec
// accepts (docs/protocol.md, "Follow-ups: the form every reading accepts").
//
// Capture and return sign `login + client_orderid + orderid + amount + currency + key`, and
// both may leave amount and currency out. The spec then leaves them out of the checksum; the
// operator's PHP library (payneteasy/php-library-payneteasy-api, Query/CaptureQuery.php) signs
// the order's amount and currency anyway. Two gateways may read the same amount-less request
// differently; a request that carries amount and currency is signed the same way under both.
// So Paydesk sends them whenever it knows them, and a capture always.

import { formatMinor } from './amount';
import { InputError } from './errors';

export type FollowUpKind = 'capture' | 'refund' | 'cancel' | 'void';

export const FOLLOW_UP_OPERATION = {
  capture: 'CAPTURE',
  refund: 'RETURN',
  cancel: 'RETURN',
  void: 'VOID',
} as const satisfies Record<FollowUpKind, string>;

export interface FollowUp {
  kind: FollowUpKind;
  clientOrderId: string;
  /** The gateway's orderid of the order acted on. */
  orderid: string;
  /**
   * Minor units: what is captured or refunded, or for a cancel the hold it releases. Undefined
   * when only the gateway knows it (part was captured or refunded outside Paydesk).
   */
  amountMinor?: bigint | undefined;
  /** The order's currency. */
  currency?: string | undefined;
  comment?: string | undefined;
}

/** The request fields of a follow-up; the operation is FOLLOW_UP_OPERATION[kind]. */
export function followUpFields(followUp: FollowUp): Record<string, string> {
  const { kind, clientOrderId, orderid, amountMinor, comment } = followUp;
  const currency = followUp.currency?.trim() || undefined;
  const fields: Record<string, string> = { client_orderid: clientOrderId, orderid };
  if (kind === 'void') {
    // A void is never partial: the gateway refuses an amount on it.
    if (amountMinor !== undefined)
      throw new Error('A void carries no amount; this is a bug in the caller.');
  } else if (amountMinor !== undefined && currency !== undefined) {
    // With the currency's own decimals (JPY none, KWD three: docs/protocol.md).
    fields.amount = formatMinor(amountMinor, currency);
    fields.currency = currency;
  } else if (kind === 'capture') {
    throw new InputError(
      amountMinor === undefined
        ? 'Paydesk does not know how much of this hold is left, and a capture is always sent with its amount and currency. Enter the amount to capture.'
        : "The order's currency is not known, and a capture is always sent with its amount and currency. Look the order up again.",
      amountMinor === undefined ? 'amount' : 'currency',
    );
  }
  if (comment) fields.comment = comment;
  return fields;
}
