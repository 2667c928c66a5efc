// Payouts, saved cards and rebills, recurring payments and payment links: their calls, kept
// beside contract.ts, which lists them in the contract. A card number typed here goes to main
// and the gateway, never back; every one of them answers with its journal entry.

import { z } from 'zod';

import { actionId, byProfile, call, freeText, id, moneyText, text } from './contract-fields';
import { actionResultSchema } from './order-contract';

/** Where a payout goes. A card number typed here goes to main and the gateway, never back. */
export const payoutDestinationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('card'), cardNumber: text(40) }).strict(),
  z.object({ kind: z.literal('card-ref'), cardRefId: text(20) }).strict(),
  z
    .object({
      kind: z.literal('bank'),
      accountNumber: text(40),
      bankName: freeText(120),
      bic: text(11),
    })
    .strict(),
  z.object({ kind: z.literal('phone'), phone: text(24) }).strict(),
]);

export const payoutRequestSchema = z
  .object({
    ...actionId,
    destination: payoutDestinationSchema,
    receiverFirstName: freeText(80).optional(),
    receiverLastName: freeText(80).optional(),
    amount: moneyText,
    currency: text(3),
    purpose: freeText(120).optional(),
    description: freeText(255),
  })
  .strict();

export const checkedPayoutSchema = z.object({
  clientOrderId: z.string(),
  orderId: z.string().nullable(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  destination: z.string(),
  description: z.string().nullable(),
  checkedBy: z.string(),
  checkedAt: z.string(),
  state: z.enum(['checking', 'checked', 'paying']),
});

export const cardInfoSchema = z.object({
  cardRefId: z.string(),
  brand: z.string().nullable(),
  bin: z.string().nullable(),
  masked: z.string().nullable(),
  name: z.string().nullable(),
  expMonth: z.string().nullable(),
  expYear: z.string().nullable(),
  expired: z.boolean(),
});

/** The schedule as typed; main checks it and answers with a sentence that says what to change. */
export const recurringInputSchema = z
  .object({
    amount: text(20),
    currency: text(3),
    period: text(10),
    interval: text(6),
    startDate: text(10).optional(),
    repeats: text(6).optional(),
  })
  .strict();

export const recurringRequestSchema = recurringInputSchema
  .extend({
    ...actionId,
    cardRefId: text(20).optional(),
    orderid: text(64).optional(),
    email: text(256).optional(),
    firstName: freeText(80).optional(),
    lastName: freeText(80).optional(),
    description: freeText(255),
  })
  .strict();

export const schedulePreviewSchema = z.object({
  amount: z.string(),
  currency: z.string(),
  charges: z.array(z.object({ n: z.number().int(), date: z.string() })),
  total: z.number().int().nullable(),
  summary: z.string(),
});

export const payLinkRequestSchema = z
  .object({
    ...actionId,
    kind: z.enum(['sale', 'preauth']),
    amount: moneyText,
    currency: text(3),
    email: text(256),
    description: freeText(255),
    returnUrl: text(2048),
  })
  .strict();

export const payLinkViewSchema = z.object({
  clientOrderId: z.string(),
  orderId: z.string().nullable(),
  kind: z.enum(['sale', 'preauth']),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  email: z.string().nullable(),
  description: z.string().nullable(),
  url: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  state: z.enum(['open', 'paid', 'failed', 'unsure']),
  status: z.string().nullable(),
  errorMessage: z.string().nullable(),
});

export const payoutCalls = {
  /** One step (v2 PAYOUT): paid at once. */
  send: call(payoutRequestSchema, actionResultSchema),
  /** Step one of two (v4 PAYOUT_V4_CHECK): registered, not paid. */
  check: call(payoutRequestSchema, actionResultSchema),
  /** Checked payouts waiting to be paid, with who checked them and when. */
  toPay: call(byProfile, z.array(checkedPayoutSchema)),
  /** Step two (v4 PAYOUT_V4_PAY): pays a checked payout, once. */
  pay: call(z.object({ ...actionId, checkClientOrderId: id }).strict(), actionResultSchema),
} as const;

export const cardCalls = {
  /** Saves the card of an approved order as a card reference (CARDREF or CARDREF_V4). */
  save: call(z.object({ ...actionId, orderid: id }).strict(), actionResultSchema),
  info: call(z.object({ profileId: id, cardRefId: text(20) }).strict(), cardInfoSchema),
  rebill: call(
    z
      .object({
        ...actionId,
        cardRefId: text(20),
        amount: moneyText,
        currency: text(3),
        description: freeText(255),
      })
      .strict(),
    actionResultSchema,
  ),
} as const;

export const recurringCalls = {
  preview: call(recurringInputSchema, schedulePreviewSchema),
  create: call(recurringRequestSchema, actionResultSchema.extend({ cardRefId: z.string() })),
} as const;

export const payLinkCalls = {
  create: call(payLinkRequestSchema, actionResultSchema),
  list: call(byProfile, z.array(payLinkViewSchema)),
  /** Copies a link's address to the clipboard from main (the renderer has no clipboard permission). */
  copy: call(z.object({ ...actionId }).strict(), z.null()),
} as const;

export type CheckedPayout = z.output<typeof checkedPayoutSchema>;
export type CardInfoData = z.output<typeof cardInfoSchema>;
export type SchedulePreviewData = z.output<typeof schedulePreviewSchema>;
export type PayLinkData = z.output<typeof payLinkViewSchema>;
