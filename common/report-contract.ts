// Reports -> Daily close: its calls, kept beside contract.ts, which lists them in the contract.
// Amounts cross as decimal text and minor units as digits, never as a number.

import { z } from 'zod';

import { saveResultSchema } from './contract-fields';
import { REPORT_KINDS, REPORT_OUTCOMES } from './report';
import { str } from './text-schema';

const day = (label: string) =>
  str().regex(/^\d{4}-\d{2}-\d{2}$/, `Write ${label} as a day, for example 2026-03-14.`);

export const reportRequestSchema = z
  .object({
    from: day('From'),
    to: day('To'),
    /** Absent: every profile. */
    profileId: str().trim().min(1).max(128).optional(),
  })
  .strict();

const reportLineSchema = z.object({
  day: z.string(),
  currency: z.string().nullable(),
  kind: z.enum(REPORT_KINDS),
  operator: z.string(),
  outcome: z.enum(REPORT_OUTCOMES),
  count: z.number().int().nonnegative(),
  amountMinor: z.string().regex(/^\d+$/),
  amount: z.string().nullable(),
  withoutAmount: z.number().int().nonnegative(),
});

export const reportViewSchema = z.object({
  from: z.string(),
  to: z.string(),
  zone: z.string(),
  profileId: z.string().nullable(),
  lines: z.array(reportLineSchema),
});

export const reportCalls = {
  /** The summary of the range, grouped by the journal's own store. */
  summary: { request: reportRequestSchema, result: reportViewSchema },
  /** Opens a save dialog in main and writes the summary as CSV. */
  exportCsv: { request: reportRequestSchema, result: saveResultSchema },
};

export type ReportViewData = z.output<typeof reportViewSchema>;
export type ReportLineData = z.output<typeof reportLineSchema>;
export type ReportRequestData = z.input<typeof reportRequestSchema>;
