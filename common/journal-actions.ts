// What a clerk did, in the journal's words: shared by the renderer's screens (through
// contract.ts) and main's journal and CSV export, without the contract's zod schemas.

/**
 * What a clerk did, as the journal names it (the gateway's operation name, CAPTURE, RETURN or
 * VOID, stays in the CSV's operation column). Later screens add their operations here.
 */
export const JOURNAL_ACTIONS = {
  capture: 'Capture',
  'partial-capture': 'Partial capture',
  refund: 'Refund',
  'partial-refund': 'Partial refund',
  void: 'Void',
  'cancel-hold': 'Cancel hold',
  payout: 'Payout',
  'payout-check': 'Payout check',
  'payout-pay': 'Payout pay',
  'save-card': 'Save card',
  rebill: 'Rebill',
  subscription: 'Subscription',
  'payment-link': 'Payment link',
  'hold-link': 'Hold link',
} as const satisfies Record<string, string>;
export type JournalAction = keyof typeof JOURNAL_ACTIONS;

/** The words for an entry's action; an entry without one is named by its gateway operation. */
export function actionLabel(action: string | null, operation: string): string {
  return action && Object.hasOwn(JOURNAL_ACTIONS, action)
    ? JOURNAL_ACTIONS[action as JournalAction]
    : operation;
}

/**
 * Gateway operations that make a link for a customer to pay (a payment link, a hold link). Once
 * the gateway has answered with the link the entry waits for the customer: no money moves
 * until they pay, so it is an open link, not a pending operation.
 */
export const CUSTOMER_LINK_OPERATIONS: readonly string[] = ['SALEFORM', 'PREAUTHFORM'];

/** An entry that is an open link: the gateway made it (acknowledged) and waits for the customer. */
export function isOpenLink(entry: { operation: string; state: string }): boolean {
  return entry.state === 'acknowledged' && CUSTOMER_LINK_OPERATIONS.includes(entry.operation);
}
