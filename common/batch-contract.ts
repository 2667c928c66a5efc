// Batches (a CSV of refunds, captures or voids sent row by row): their calls, kept beside
// contract.ts, which lists them in the contract. Loading a file sends nothing; starting one on a
// production profile asks for its totals, typed.

import { z } from 'zod';

import { call, empty, id, saveResultSchema, text } from './contract-fields';

export const batchRowSchema = z.object({
  line: z.number().int(),
  operation: z.string(),
  orderid: z.string().nullable(),
  clientOrderId: z.string().nullable(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  problem: z.string().nullable(),
  warning: z.string().nullable(),
  state: z.enum(['invalid', 'ready', 'sending', 'done', 'failed', 'cancelled']),
  status: z.string().nullable(),
  error: z.string().nullable(),
});

export const batchViewSchema = z.object({
  id: z.number().int(),
  profileId: z.string(),
  fileName: z.string(),
  state: z.enum(['ready', 'running', 'paused', 'cancelled', 'done']),
  interrupted: z.boolean(),
  /** Why the batch paused by itself (the journal could not be reached), while it stays paused. */
  pausedBecause: z.string().nullable(),
  /** While running: pause or cancel was asked and the rows being sent are reaching their end. */
  stopping: z.enum(['pause', 'cancel']).nullable(),
  concurrency: z.number().int(),
  createdAt: z.string(),
  totals: z.array(
    z.object({
      operation: z.string(),
      currency: z.string(),
      amount: z.string(),
      rows: z.number().int(),
    }),
  ),
  confirmation: z.string(),
  needsConfirmation: z.boolean(),
  progress: z.object({
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    left: z.number().int(),
    sending: z.number().int(),
    invalid: z.number().int(),
    cancelled: z.number().int(),
    ratePerSecond: z.number().nullable(),
    secondsLeft: z.number().nullable(),
  }),
});

const byBatch = z.object({ batchId: z.number().int().min(1) }).strict();

export const batchCalls = {
  /** Parses and checks a CSV (read by the renderer from the open dialog, or pasted) and stores it; sends nothing. */
  load: call(
    z
      .object({
        profileId: id,
        fileName: text(260).trim().min(1),
        text: text(5_000_000).min(1, 'Choose a file or paste the rows first.'),
        concurrency: z.number().int().min(1).max(32).optional(),
      })
      .strict(),
    z.object({ batch: batchViewSchema, rows: z.array(batchRowSchema) }),
  ),
  list: call(empty, z.array(batchViewSchema)),
  get: call(byBatch, batchViewSchema),
  rows: call(byBatch, z.array(batchRowSchema)),
  /** Starts or resumes; on production profiles `confirmation` is the batch's totals, typed. */
  start: call(
    z.object({ batchId: z.number().int().min(1), confirmation: text(2_000).optional() }).strict(),
    batchViewSchema,
  ),
  pause: call(byBatch, batchViewSchema),
  cancel: call(byBatch, batchViewSchema),
  /** Opens a save dialog in main and writes the result CSV of every row. */
  saveResult: call(byBatch, saveResultSchema),
} as const;

export type BatchViewData = z.output<typeof batchViewSchema>;
export type BatchRowData = z.output<typeof batchRowSchema>;
