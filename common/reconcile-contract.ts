// Reports -> Reconciliation: its calls, kept beside contract.ts, which lists them in the
// contract. A run asks the gateway's `status` about every journal entry of a range and profile
// (main/services/reconcile/); the bridge carries its progress and its findings in words.

import { z } from 'zod';

import { saveResultSchema } from './contract-fields';
import { RECONCILE_PACE } from './reconcile-pace';
import { FILTER_TIME_HINT, parseFilterTime } from './time';
import { str } from './text-schema';

export { RECONCILE_PACE } from './reconcile-pace';

const time = (label: string) =>
  str()
    .trim()
    .max(40)
    .refine((value) => parseFilterTime(value) !== undefined, {
      message: `${label} is not a time: write ${FILTER_TIME_HINT}.`,
    });

const perSecond = z
  .number()
  .min(RECONCILE_PACE.perSecond.min, `Requests a second: at least ${RECONCILE_PACE.perSecond.min}.`)
  .max(RECONCILE_PACE.perSecond.max, `Requests a second: at most ${RECONCILE_PACE.perSecond.max}.`);
const atOnce = z
  .number()
  .int('Requests at once: a whole number.')
  .min(RECONCILE_PACE.atOnce.min, `Requests at once: at least ${RECONCILE_PACE.atOnce.min}.`)
  .max(RECONCILE_PACE.atOnce.max, `Requests at once: at most ${RECONCILE_PACE.atOnce.max}.`);

const runViewSchema = z.object({
  id: z.number().int(),
  profileId: z.string(),
  profileName: z.string(),
  operator: z.string(),
  from: z.string(),
  to: z.string(),
  journalStore: z.enum(['sqlite', 'postgres']),
  state: z.enum(['running', 'paused', 'done']),
  pausing: z.boolean(),
  pausedBecause: z.string().nullable(),
  perSecond: z.number(),
  atOnce: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  progress: z.object({
    total: z.number().int(),
    done: z.number().int(),
    agrees: z.number().int(),
    differs: z.number().int(),
    unreadable: z.number().int(),
    notAskable: z.number().int(),
    left: z.number().int(),
    ratePerSecond: z.number().nullable(),
    secondsLeft: z.number().nullable(),
  }),
});

const lineViewSchema = z.object({
  seq: z.number().int(),
  kind: z.enum(['entry', 'order']),
  state: z.enum(['todo', 'agrees', 'differs', 'unreadable', 'not-askable']),
  orderId: z.string().nullable(),
  clientOrderId: z.string().nullable(),
  operation: z.string().nullable(),
  action: z.string().nullable(),
  createdAt: z.string().nullable(),
  journal: z.string(),
  gateway: z.string().nullable(),
  findings: z.array(z.object({ kind: z.string(), message: z.string() })),
  error: z.string().nullable(),
});

const byRun = z.object({ runId: z.number().int().min(1) }).strict();

export const reconcileCalls = {
  /** Plans a run (every entry of the range, and the orders they act on) and starts it. */
  create: {
    request: z
      .object({
        profileId: str().trim().min(1, 'Choose a profile.').max(128),
        from: time('From'),
        to: time('To'),
        perSecond: perSecond.optional(),
        atOnce: atOnce.optional(),
      })
      .strict()
      .refine(
        (r) => {
          // Each time's own problem is said by its field; only two readable times are compared.
          const from = parseFilterTime(String(r.from));
          const to = parseFilterTime(String(r.to));
          return !from || !to || from.getTime() < to.getTime();
        },
        { message: 'From must be before To.', path: ['to'] },
      ),
    result: runViewSchema,
  },
  list: { request: z.object({}).strict(), result: z.array(runViewSchema) },
  get: { request: byRun, result: runViewSchema },
  /** The lines that disagree or could not be read. */
  findings: { request: byRun, result: z.array(lineViewSchema) },
  pause: { request: byRun, result: runViewSchema },
  resume: {
    request: z
      .object({
        runId: z.number().int().min(1),
        perSecond: perSecond.optional(),
        atOnce: atOnce.optional(),
      })
      .strict(),
    result: runViewSchema,
  },
  /** Opens a save dialog in main and writes every line as CSV. */
  saveCsv: { request: byRun, result: saveResultSchema },
  /** Prints the signable page to PDF in main and saves it through the save dialog. */
  savePdf: { request: byRun, result: saveResultSchema },
} as const;

export type ReconcileRunData = z.output<typeof runViewSchema>;
export type ReconcileLineData = z.output<typeof lineViewSchema>;
