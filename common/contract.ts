// Every call and event between the renderer and main: name, request schema, result schema.
// main/bridge.ts parses each request with these schemas before a handler sees it, and each
// result before it leaves (unknown keys are stripped, so nothing extra can leak); the renderer's
// forms validate with the same schemas. Money crosses as decimal text, never as a number.
// Each area's calls and schemas are in a file of their own beside this one (common/*-contract.ts,
// their bricks in contract-fields.ts); this file lists them, one namespace each, and names the
// events and the bridge's error shape.

import { z } from 'zod';

import { appCalls, lifecycleCalls, networkCalls, toolCalls, updateCalls } from './app-contract';
import { lifecycleSchema, updateViewSchema } from './app-contract';
import { backupCalls, supportCalls } from './backup-contract';
import { batchCalls } from './batch-contract';
import { call, empty, type CallDef } from './contract-fields';
import { journalCalls, journalRowSchema } from './journal-contract';
import { cardCalls, payLinkCalls, payoutCalls, recurringCalls } from './money-contract';
import { orderCalls } from './order-contract';
import { keyCalls, profileCalls } from './profile-contract';
import { reconcileCalls } from './reconcile-contract';
import { reportCalls } from './report-contract';
import { sessionSchema, teamCalls } from './team-contract';
import { teamDeskCalls } from './team-desk-contract';

// Plain words and rules main uses too, kept apart from the zod schemas so that main's start does
// not build every schema of the contract to read one sentence.
export { ORDERID_MESSAGE } from './text-rules';
export { JOURNAL_ACTIONS, actionLabel, type JournalAction } from './journal-actions';
export { REFUND_REASONS, VOID_REASONS } from './action-reasons';
// The schemas other modules use by name, from the files that define them.
export { freeText, gatewayOrderId, moneyText } from './contract-fields';
export { environmentSchema, profileInputSchema } from './profile-contract';
export {
  journalDetailSchema,
  journalFilterSchema,
  journalRowSchema,
  journalTotalsSchema,
  type JournalTotalsView,
} from './journal-contract';
export {
  actionRequestSchema,
  orderStateSchema,
  orderViewSchema,
  recentOrderSchema,
} from './order-contract';
export {
  payLinkRequestSchema,
  payoutDestinationSchema,
  payoutRequestSchema,
  recurringInputSchema,
  recurringRequestSchema,
} from './money-contract';

export const contract = {
  app: appCalls,
  /** Settings -> Network: a CA trusted besides the built-in ones (a company's TLS proxy). */
  network: networkCalls,
  /** Settings -> Updates. install quits Paydesk only when nothing is in flight (else the reason). */
  updates: updateCalls,
  /** Answered from the first moment the window exists, before the services have started. */
  lifecycle: lifecycleCalls,
  profiles: profileCalls,
  keys: keyCalls,
  orders: orderCalls,
  payouts: payoutCalls,
  cards: cardCalls,
  recurring: recurringCalls,
  payLinks: payLinkCalls,
  journal: journalCalls,
  batches: batchCalls,
  /** Which journal this desk writes, as whom, in which Paydesk groups, and whether it is reachable. */
  session: {
    get: call(empty, sessionSchema),
  },
  /** Settings -> Team journal (common/team-contract.ts, team-desk-contract.ts). */
  team: { ...teamCalls, ...teamDeskCalls },
  backups: backupCalls,
  support: supportCalls,
  /** Reports -> Daily close (common/report-contract.ts). */
  reports: reportCalls,
  /** Reconciliation: the journal's entries asked about again at the gateway (reconcile-contract.ts). */
  reconcile: reconcileCalls,
  tools: toolCalls,
} as const;

/** Events main sends to the renderer. */
export const events = {
  /** The start or the shutdown moved on (lifecycle.state's answer, pushed). */
  lifecycle: lifecycleSchema,
  /** Settings -> Updates changed: checking, downloading, ready, failed. */
  updateChanged: updateViewSchema,
  /** A journal entry was written or changed state (sent, acknowledged, final...). */
  journalChanged: journalRowSchema,
  /** How far a CSV export of the journal has come: lines done of about `total`. */
  journalExportProgress: z
    .object({ done: z.number().int().min(0), total: z.number().int().min(0) })
    .strict(),
} as const;

export type Contract = typeof contract;
export type Namespace = keyof Contract;
export type MethodOf<N extends Namespace> = keyof Contract[N] & string;
export type RequestOf<N extends Namespace, M extends MethodOf<N>> =
  Contract[N][M] extends CallDef<infer Req, z.ZodType> ? z.input<Req> : never;
export type ParsedRequestOf<N extends Namespace, M extends MethodOf<N>> =
  Contract[N][M] extends CallDef<infer Req, z.ZodType> ? z.output<Req> : never;
export type ResultOf<N extends Namespace, M extends MethodOf<N>> =
  Contract[N][M] extends CallDef<z.ZodType, infer Res> ? z.output<Res> : never;
export type EventName = keyof typeof events;
export type EventOf<E extends EventName> = z.output<(typeof events)[E]>;

export type { OrderViewData } from './order-contract';
export type { JournalRow, JournalFilterInput } from './journal-contract';
export type {
  CheckedPayout,
  CardInfoData,
  SchedulePreviewData,
  PayLinkData,
} from './money-contract';
export type {
  CallbackCheckData,
  TrustedCaData,
  UpdateViewData,
  LifecycleData,
} from './app-contract';
export type { BatchViewData, BatchRowData } from './batch-contract';

/**
 * What the main process knows about the request behind an error, set in main only
 * (main/services/errors.ts deliveryOf): `nothing-sent` when it provably never left this desk,
 * `gateway-refused` when the gateway answered no (nothing processed), `may-have-reached`
 * otherwise. Screens read it and never guess it from a code.
 */
export type Delivery = 'nothing-sent' | 'may-have-reached' | 'gateway-refused';

export interface BridgeErrorData {
  code: string;
  message: string;
  /** The field to fix, when there is one. */
  field?: string;
  details?: unknown;
  delivery: Delivery;
}

export type BridgeResult<T> = { ok: true; data: T } | { ok: false; error: BridgeErrorData };

/** The IPC channel of a call: one per method, never a generic invoke. */
export const channelOf = (namespace: string, method: string) => `paydesk:${namespace}.${method}`;
export const eventChannelOf = (event: string) => `paydesk:event.${event}`;

/** Every call of the contract as [namespace, method] pairs. */
export function allCalls(): [Namespace, string][] {
  return (Object.keys(contract) as Namespace[]).flatMap((ns) =>
    Object.keys(contract[ns]).map((m) => [ns, m] as [Namespace, string]),
  );
}
