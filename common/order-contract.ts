// Orders (Lookup, the order's page and its money actions: capture, void, refund, cancel): their
// calls, kept beside contract.ts, which lists them in the contract. A figure only the gateway
// knows in full crosses with its "at least" flag, never as a confident number.

import { z } from 'zod';

import { call, empty, freeText, gatewayOrderId, id, moneyText, text } from './contract-fields';
import { journalRowSchema, journalStateSchema } from './journal-contract';

const actionViewSchema = z.object({
  allowed: z.boolean(),
  max: z.string().optional(),
  reason: z.string().optional(),
});

/** One plain state per order (main/services/orders/state.ts). */
export const orderStateSchema = z.enum([
  'approved',
  'partly-captured',
  'captured',
  'partly-refunded',
  'refunded',
  'voided',
  'hold-cancelled',
  'declined',
  'processing',
  'waiting-3ds',
  'unknown',
]);

// The order page's timeline (main/services/orders/timeline.ts).
function saidSchema() {
  return z.object({ amount: z.string(), at: z.string(), since: z.string().nullable() });
}
function timelineItemSchema() {
  const leftOf = z.enum(['capture', 'refund']);
  return z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('entry'),
      at: z.string(),
      role: z.enum(['made', 'acted']),
      entry: journalRowSchema,
      outcome: z.enum([
        'approved',
        'declined',
        'refused',
        'not-sent',
        'not-received',
        'pending',
        'open',
        'unknown',
      ]),
      outcomeText: z.string(),
      /** Made on another profile than the order's page: its name, null when it was removed. */
      otherProfile: z.object({ name: z.string().nullable() }).nullable(),
    }),
    z.object({
      kind: z.literal('said'),
      at: z.string(),
      of: leftOf,
      amount: z.string(),
      clientOrderId: z.string(),
    }),
    z.object({ kind: z.literal('elsewhere'), at: z.null(), of: leftOf, text: z.string() }),
    z.object({
      kind: z.literal('read'),
      at: z.string(),
      status: z.string(),
      stateLabel: z.string(),
      orderStage: z.string().nullable(),
    }),
  ]);
}

export const orderViewSchema = z.object({
  profileId: z.string(),
  orderId: z.string(),
  clientOrderId: z.string().nullable(),
  status: z.string(),
  state: orderStateSchema,
  stateLabel: z.string(),
  statusText: z.string(),
  final: z.boolean(),
  transactionType: z.string().nullable(),
  orderStage: z.string().nullable(),
  currency: z.string().nullable(),
  figureKind: z.enum(['hold', 'payment', 'amount-only']),
  amount: z.string(),
  /** Null: not a figure of this transaction type. */
  captured: z.string().nullable(),
  /** More was captured outside Paydesk: `captured` is a lower bound. */
  capturedAtLeast: z.boolean(),
  refunded: z.string().nullable(),
  refundedAtLeast: z.boolean(),
  /** Null: not a figure of this type, or only the gateway knows it (see the AtLeast flags). */
  remainingCapturable: z.string().nullable(),
  remainingRefundable: z.string().nullable(),
  card: z.object({
    bin: z.string().optional(),
    lastFour: z.string().optional(),
    type: z.string().optional(),
    holder: z.string().optional(),
    expMonth: z.string().optional(),
    expYear: z.string().optional(),
    refId: z.string().optional(),
  }),
  threeDsPending: z.boolean(),
  threeDsAddress: z.string().nullable(),
  changedElsewhere: z.boolean(),
  /** The journal could not be read (a team's database away): its figures are unknown. */
  journalUnreadable: z.string().nullable(),
  pending: z.array(
    z.object({
      clientOrderId: z.string(),
      operation: z.string(),
      amount: z.string().nullable(),
      state: journalStateSchema,
    }),
  ),
  captures: z.array(
    z.object({
      orderId: z.string().nullable(),
      amount: z.string().nullable(),
      status: z.string().nullable(),
    }),
  ),
  actions: z.object({
    capture: actionViewSchema,
    void: actionViewSchema,
    refund: actionViewSchema,
    cancel: actionViewSchema,
  }),
  // The order's page (main/services/orders/timeline.ts).
  email: z.string().nullable(),
  /** When this status was read from the gateway. */
  readAt: z.string(),
  created: z.object({
    at: z.string().nullable(),
    by: z.string().nullable(),
    source: z.enum(['paydesk', 'not-given']),
    clientOrderId: z.string().nullable(),
  }),
  /** What the gateway said is left, when, and what Paydesk sent since (already taken off). */
  remainingCapturableSaid: saidSchema().nullable(),
  remainingRefundableSaid: saidSchema().nullable(),
  timeline: z.array(timelineItemSchema()),
});

export const recentOrderSchema = z.object({
  orderId: z.string(),
  clientOrderId: z.string().nullable(),
  email: z.string().nullable(),
  lastFour: z.string().nullable(),
  transactionType: z.string().nullable(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  stateLabel: z.string().nullable(),
  seenAt: z.string(),
});

/** A capture, void, refund or cancel, with the action id the screen got when it opened. */
export const actionRequestSchema = z
  .object({
    profileId: id,
    orderid: gatewayOrderId.refine((value) => value !== '', 'Enter the order’s orderid.'),
    clientOrderId: id,
    amount: moneyText.optional(),
    reason: freeText(80).optional(),
    note: freeText(500).optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.reason === 'Other' && !value.note?.trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['note'],
        message: 'With the reason "Other", write a note that says what happened.',
      });
    }
  });

/** What every money action answers: its journal entry, and whether it was a replay of one already made. */
export const actionResultSchema = z.object({ entry: journalRowSchema, replayed: z.boolean() });

export const orderCalls = {
  lookup: call(
    z
      .object({
        profileId: id,
        orderid: gatewayOrderId.optional(),
        client_orderid: text(128).trim().optional(),
      })
      .strict()
      .refine((v) => Boolean(v.orderid || v.client_orderid), {
        message: 'Enter an orderid or a client_orderid.',
        path: ['orderid'],
      }),
    orderViewSchema,
  ),
  /** Orders this desk looked up or acted on, newest first, narrowed by `query`. */
  recent: call(
    z.object({ profileId: id, query: text(128).optional() }).strict(),
    z.array(recentOrderSchema),
  ),
  openAction: call(empty, z.object({ clientOrderId: z.string() })),
  /** Copies the 3-D Secure address of an order waiting for it, from main (no clipboard in the renderer). */
  copyThreeDsAddress: call(z.object({ profileId: id, orderid: id }).strict(), z.null()),
  capture: call(actionRequestSchema, actionResultSchema),
  void: call(actionRequestSchema, actionResultSchema),
  refund: call(actionRequestSchema, actionResultSchema),
  cancel: call(actionRequestSchema, actionResultSchema),
} as const;

export type OrderViewData = z.output<typeof orderViewSchema>;
