// The Journal screen's calls and the journal's entries as every screen shows them, kept beside
// contract.ts, which lists them in the contract. Amounts cross as exact decimal text; a filter's
// time or amount that is not one is refused with a sentence that says how to write it.

import { z } from 'zod';

import { call, freeText, id, saveResultSchema, text } from './contract-fields';
import { FILTER_TIME_HINT, parseFilterTime } from './time';

export const journalStateSchema = z.enum([
  'sending',
  'acknowledged',
  'final',
  'refused',
  'unknown',
]);

export const journalRowSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  operator: z.string(),
  profileId: z.string(),
  /** The profile's name; one this desk no longer has: "Removed profile" and its id's start. */
  profileName: z.string(),
  operation: z.string(),
  clientOrderId: z.string(),
  orderId: z.string().nullable(),
  targetOrderId: z.string().nullable(),
  /** The target order's shop id (its client_orderid). */
  targetClientOrderId: z.string().nullable(),
  /** What the clerk did (a JOURNAL_ACTIONS key); null only for entries of other kinds. */
  action: z.string().nullable(),
  /** In words: "Partial refund", "Cancel hold". */
  actionLabel: z.string(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  email: z.string().nullable(),
  /** The card's last four digits, where the entry knows its card. */
  cardLastFour: z.string().nullable(),
  state: journalStateSchema,
  status: z.string().nullable(),
  errorMessage: z.string().nullable(),
  finalAt: z.string().nullable(),
  /** What the gateway answered beyond its status: card-ref-id, recurring-payment-id, redirect-url, a masked destination. */
  result: z.record(z.string(), z.string()),
});

export const journalDetailSchema = z.object({
  row: journalRowSchema,
  errorCode: z.string().nullable(),
  updatedAt: z.string(),
  /** Who settled the entry by hand, and why (null when the gateway's answer settled it). */
  settledBy: z.string().nullable(),
  settleReason: z.string().nullable(),
  /**
   * A team journal's entry uploaded from a desk's own journal: the desk, when, and whom the desk
   * recorded (the entry's operator is the login that uploaded it). Null for every other entry.
   */
  uploaded: z
    .object({
      desk: z.string(),
      at: z.string(),
      recordedOperator: z.string(),
      recordedSettledBy: z.string().nullable(),
    })
    .nullable(),
  /** The request as sent, redacted (card numbers masked; no secret is ever stored). */
  request: z.record(z.string(), z.string()),
  /** Every state the entry went through, oldest first. */
  history: z.array(
    z.object({
      state: journalStateSchema,
      status: z.string().nullable(),
      orderId: z.string().nullable(),
      errorCode: z.string().nullable(),
      errorMessage: z.string().nullable(),
      at: z.string(),
    }),
  ),
});

/** A count of entries and the sum of their amounts, exact text in their currency. */
const journalSumSchema = z.object({ count: z.number().int(), amount: z.string() });
const journalTotalsLine = {
  approved: journalSumSchema,
  /** Still owed a final answer: may have moved or not. */
  open: journalSumSchema,
  /** Declined, refused, errors, links still waiting for their customer: counted, not summed. */
  notMoved: z.number().int(),
};
export const journalTotalsSchema = z.object({
  currencies: z.array(
    z.object({
      /** Null: entries without an amount. */
      currency: z.string().nullable(),
      ...journalTotalsLine,
      byAction: z.array(z.object({ action: z.string(), label: z.string(), ...journalTotalsLine })),
    }),
  ),
});
export type JournalTotalsView = z.output<typeof journalTotalsSchema>;

/** A journal filter's time: refused, saying how to write it, when it is not one. */
const filterTime = (label: string) =>
  text(40).refine((value) => parseFilterTime(value) !== undefined, {
    message: `${label} is not a time: write ${FILTER_TIME_HINT}.`,
  });

/** A journal filter's amount: digits, a point and the decimals ("14.25"); never a float. */
const filterAmount = (label: string) =>
  text(24).regex(/^\s*\d{1,13}(\.\d{1,6})?\s*$/, {
    message: `${label} is not an amount: write digits with a point for the decimals, such as 14.25.`,
  });

export const journalFilterSchema = z
  .object({
    /** The start of an id (shop order id, orderid, action id). */
    orderRef: text(128).optional(),
    /** Part of the customer's e-mail. */
    email: text(256).optional(),
    cardLastFour: text(8)
      .regex(/^\s*\d{4}\s*$/, { message: "Write the card's last four digits, such as 1111." })
      .optional(),
    amount: filterAmount('The amount').optional(),
    amountMin: filterAmount('The smallest amount').optional(),
    amountMax: filterAmount('The largest amount').optional(),
    currency: text(8)
      .regex(/^\s*[A-Za-z]{3}\s*$/, { message: 'Write a currency code, such as EUR.' })
      .optional(),
    status: text(32).optional(),
    state: journalStateSchema.optional(),
    pending: z.boolean().optional(),
    operation: text(64).optional(),
    action: text(64).optional(),
    profileId: text(128).optional(),
    from: filterTime('From').optional(),
    to: filterTime('To').optional(),
  })
  .strict();

/** An export says how many entries it wrote: the notice never counts a later search. */
const exportResultSchema = saveResultSchema.extend({
  count: z.number().int().nonnegative(),
  /** The journal export's totals, in a file beside it (NAME.totals.csv). */
  totalsPath: z.string().optional(),
});

export const journalCalls = {
  /** One entry in full: its fields, the redacted request, its answers in order. */
  entry: call(z.object({ clientOrderId: id }).strict(), journalDetailSchema),
  search: call(
    z
      .object({
        filter: journalFilterSchema,
        offset: z.number().int().min(0),
        limit: z.number().int().min(1).max(1000),
      })
      .strict(),
    z.object({
      rows: z.array(journalRowSchema),
      total: z.number().int(),
      offset: z.number().int(),
      limit: z.number().int(),
    }),
  ),
  /** Totals per currency and action of what the filter shows (approved, open, not moved). */
  totals: call(z.object({ filter: journalFilterSchema }).strict(), journalTotalsSchema),
  /** Opens a save dialog in main and writes the CSV, its totals as its last lines. */
  exportCsv: call(z.object({ filter: journalFilterSchema }).strict(), exportResultSchema),
  /**
   * A person settles an entry Paydesk cannot settle (the gateway has no record of it, or it
   * stays processing) as approved or not received, with a reason the journal keeps.
   */
  settleByHand: call(
    z
      .object({
        clientOrderId: id,
        outcome: z.enum(['approved', 'not-received']),
        reason: freeText(500).trim().min(1, 'Say why you settle this entry by hand.'),
      })
      .strict(),
    journalRowSchema,
  ),
} as const;

export type JournalRow = z.output<typeof journalRowSchema>;
export type JournalFilterInput = z.input<typeof journalFilterSchema>;
