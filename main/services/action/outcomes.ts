// How the fate of each journaled operation is read: from its immediate answer, and from
// `status` when the answer was lost. Most operations start or act on an order of their own and
// are final with that order's status; a few are read differently, and each difference is
// written here once (docs/protocol.md, "Reading an operation's outcome"):
//
// - a payout check is done when the payout is registered (`payout_checked`), not when paid;
// - a payout pay carries the check's client_orderid and orderid: it was received when the
//   payout left `payout_checked`;
// - a card reference is read from the status of the order it was made from (`card-ref-id`);
// - a recurring payment has no status at all: a lost answer can only be settled by a person.

import type { OrderRef } from '../../gateway/client';
import { getOperation, type RequestOperation } from '../../gateway/operations';
import { isFinalStatus, type GatewayResponse, type StatusResponse } from '../../gateway/response';
import type { EntryResult, JournalEntry } from '../../store/journal/types';

/** What an immediate answer says: acknowledged (still to follow), or already final. */
export interface AnswerOutcome {
  orderId?: string;
  result?: EntryResult;
  /** Set when the answer itself is the final word (card reference, subscription). */
  final?: string;
}

export interface OutcomeRule {
  /** The status request that shows this entry's fate; undefined when the gateway offers none. */
  statusRef(entry: JournalEntry): OrderRef | undefined;
  /** True when the status shows the gateway received this entry's request. */
  received(status: StatusResponse): boolean;
  /** The entry's final word read from a status, or undefined while it is not final. */
  finalOf(status: StatusResponse): { status: string; result?: EntryResult } | undefined;
  fromAnswer(answer: GatewayResponse): AnswerOutcome;
  /** What a status that is not final yet adds to the entry's result (a link's address). */
  seenResult?(status: StatusResponse): EntryResult | undefined;
}

/** The client_orderid the request carried (the pay of a payout carries the check's). */
export function gatewayClientOrderId(entry: JournalEntry): string {
  const field = getOperation(entry.operation).clientOrderIdField;
  return entry.summary[field] ?? entry.clientOrderId;
}

const onlyPresent = (fields: Record<string, string | undefined>): EntryResult =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => Boolean(e[1])));

/** An order of its own, final with its status: payments, follow-ups, payouts, forms. */
const ORDER_RULE: OutcomeRule = {
  statusRef: (entry) => ({
    client_orderid: gatewayClientOrderId(entry),
    ...(entry.orderId ? { orderid: entry.orderId } : {}),
  }),
  received: () => true,
  finalOf: (status) =>
    isFinalStatus(status.status)
      ? {
          status: status.status,
          result: onlyPresent({
            destination: status.fields.destination,
            'card-ref-id': status.card.cardRefId,
          }),
        }
      : undefined,
  fromAnswer: (answer) => ({
    ...(answer.orderId ? { orderId: answer.orderId } : {}),
    ...(answer.type === 'async-form-response'
      ? { result: { 'redirect-url': answer.redirectUrl } }
      : {}),
  }),
};

/** A hosted-form order: while it waits for the customer, its status names the form's address. */
const FORM_RULE: OutcomeRule = {
  ...ORDER_RULE,
  seenResult: (status) =>
    status.status === 'processing' && status.redirectTo && !status.html
      ? { 'redirect-url': status.redirectTo }
      : undefined,
};

/** The stage of a payout registered by payout-check and not paid yet. */
export const PAYOUT_CHECKED_STAGE = 'payout_checked';
/** The journal status of a payout check that registered the payout (it waits to be paid). */
export const CHECKED = 'checked';

const PAYOUT_CHECK_RULE: OutcomeRule = {
  ...ORDER_RULE,
  finalOf: (status) =>
    ORDER_RULE.finalOf(status) ??
    (status.orderStage === PAYOUT_CHECKED_STAGE
      ? { status: CHECKED, result: onlyPresent({ destination: status.fields.destination }) }
      : undefined),
};

const PAYOUT_PAY_RULE: OutcomeRule = {
  ...ORDER_RULE,
  statusRef: (entry) => ({
    client_orderid: gatewayClientOrderId(entry),
    ...(entry.targetOrderId ? { orderid: entry.targetOrderId } : {}),
  }),
  // Still checked: the pay has not reached the payout (yet).
  received: (status) => status.orderStage !== PAYOUT_CHECKED_STAGE,
};

const CARD_REF_RULE: OutcomeRule = {
  statusRef: (entry) => (entry.targetOrderId ? { orderid: entry.targetOrderId } : undefined),
  received: (status) => Boolean(status.card.cardRefId),
  finalOf: (status) =>
    status.card.cardRefId
      ? { status: 'approved', result: { 'card-ref-id': status.card.cardRefId } }
      : undefined,
  fromAnswer: (answer) => ({
    final: (answer.type === 'create-card-ref-response' && answer.status) || 'approved',
    result: onlyPresent({
      'card-ref-id': answer.type === 'create-card-ref-response' ? answer.cardRefId : undefined,
    }),
  }),
};

const RECURRING_RULE: OutcomeRule = {
  statusRef: () => undefined,
  received: () => false,
  finalOf: () => undefined,
  fromAnswer: (answer) => ({
    final: 'approved',
    result: onlyPresent({
      'recurring-payment-id':
        answer.type === 'create-recurring-payment-response' ? answer.recurringPaymentId : undefined,
      'card-ref-id': answer.fields['card-ref-id'],
    }),
  }),
};

const RULES: Partial<Record<RequestOperation, OutcomeRule>> = {
  PAYOUT_V4_CHECK: PAYOUT_CHECK_RULE,
  PAYOUT_V4_PAY: PAYOUT_PAY_RULE,
  CARDREF: CARD_REF_RULE,
  CARDREF_V4: CARD_REF_RULE,
  CREATE_RP_V4: RECURRING_RULE,
  SALEFORM: FORM_RULE,
  PREAUTHFORM: FORM_RULE,
};

export function outcomeRule(operation: string): OutcomeRule {
  return RULES[operation as RequestOperation] ?? ORDER_RULE;
}
