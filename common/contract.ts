// Every call and event between the renderer and main: name, request schema, result schema.
// main/bridge.ts parses each request with these schemas before a handler sees it, and each
// result before it leaves (unknown keys are stripped, so nothing extra can leak); the renderer's
// forms validate with the same schemas. Money crosses as decimal text, never as a number.

import { z } from 'zod';

import { findCardData } from './card-data';
import { backupCalls, supportCalls } from './backup-contract';
import { reportCalls } from './report-contract';
import { reconcileCalls } from './reconcile-contract';
import { sessionSchema, teamCalls } from './team-contract';
import { FILTER_TIME_HINT, parseFilterTime } from './time';
import { ORDERID_MESSAGE, unsafeTextMessage } from './text-rules';
import { str } from './text-schema';

// Plain words and rules main uses too, kept apart from the zod schemas so that main's start does
// not build every schema of the contract to read one sentence.
export { ORDERID_MESSAGE } from './text-rules';
export { JOURNAL_ACTIONS, actionLabel, type JournalAction } from './journal-actions';
export { REFUND_REASONS, VOID_REASONS } from './action-reasons';

const id = str().trim().min(1).max(128);
const text = (max: number) => str().max(max);
/**
 * Text a person writes that is stored, exported or sent (reasons, notes, descriptions,
 * comments): it may not carry card data (common/card-data.ts).
 */
export const freeText = (max: number) =>
  text(max).superRefine((value, ctx) => {
    const found = findCardData(value);
    if (found) ctx.addIssue({ code: 'custom', message: found.message });
  });
/** A profile's text field: trimmed, and free of control and text-direction characters. */
const profileText = (max: number, label: string) =>
  text(max)
    .trim()
    .superRefine((value, ctx) => {
      const message = unsafeTextMessage(value, label);
      if (message) ctx.addIssue({ code: 'custom', message });
    });
/**
 * Major units as text, e.g. "10.42", "5000" (JPY), "12.345" (KWD). The shape only: how many
 * decimals the order's currency allows is checked where the currency is known (common/money.ts).
 */
export const moneyText = str()
  .trim()
  .regex(
    /^(0|[1-9]\d*)(\.\d{1,3})?$/,
    'Write the amount with digits and a dot, at most as many decimals as the currency has, for example 10.42.',
  )
  .refine(
    (value) => value.split('.')[0]!.length <= 13,
    'That amount is too large: at most 13 digits before the dot.',
  );

export const environmentSchema = z.enum(['production', 'test', 'sandbox']);

export const profileInputSchema = z.object({
  name: profileText(80, 'profile name').min(1, 'Give the profile a name.'),
  environment: environmentSchema,
  baseUrl: profileText(2048, 'base URL').min(1, 'Enter the gateway base URL.'),
  endpointId: profileText(32, 'endpoint id').min(1, 'Enter the endpoint id.'),
  endpointKind: z.enum(['endpoint', 'group']).optional(),
  login: profileText(256, 'merchant login').min(1, 'Enter the merchant login.'),
  /** Two-step payouts paid by someone other than who checked them. */
  payoutFourEyes: z.boolean().optional(),
});

const profileViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  environment: environmentSchema,
  baseUrl: z.string(),
  endpointId: z.string(),
  endpointKind: z.enum(['endpoint', 'group']),
  login: z.string(),
  keyFingerprint: z.string().nullable(),
  payoutFourEyes: z.boolean(),
  embedded: z.boolean(),
  hasControlKey: z.boolean(),
  hasPrivateKey: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** On a team, for a shared profile (main/services/team/profiles.ts); absent otherwise. */
  team: z
    .object({
      /** The person's login may change it (paydesk_admin); the database decides anyway. */
      canEdit: z.boolean(),
      updatedBy: z.string().nullable(),
      teamFingerprint: z.string().nullable(),
      deskFingerprint: z.string().nullable(),
      keyState: z.enum(['same', 'differs', 'missing-here', 'team-has-none', 'none']),
      /** What to do when this desk's key is not the team's; null when nothing is wrong. */
      keyMessage: z.string().nullable(),
    })
    .optional(),
});

const keyHistorySchema = z.object({
  fingerprint: z.string(),
  environment: environmentSchema,
  attachedAt: z.string(),
  retiredAt: z.string().nullable(),
});

const publicKeyViewSchema = z.object({
  profileId: z.string(),
  fingerprint: z.string(),
  bits: z.number().int(),
  publicKeySpkiPem: z.string(),
  publicKeyPkcs1Pem: z.string(),
  history: z.array(keyHistorySchema),
});

const actionViewSchema = z.object({
  allowed: z.boolean(),
  max: z.string().optional(),
  reason: z.string().optional(),
});

const journalStateSchema = z.enum(['sending', 'acknowledged', 'final', 'refused', 'unknown']);

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

export const gatewayOrderId = text(64)
  .trim()
  .refine((value) => value === '' || /^\d+$/.test(value), ORDERID_MESSAGE);

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

// The order page's timeline (main/services/orders/timeline.ts). Functions, so that the order
// view above can use them; hoisted, unlike the consts they are built from.
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
      // Lazy: the order view is defined before the journal row.
      entry: z.lazy(() => journalRowSchema),
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

const keyImportSchema = z
  .object({
    profileId: id,
    pem: text(65_536).min(1, 'Paste the private key PEM.'),
    passphrase: text(1024).optional(),
  })
  .strict();

const actionResultSchema = z.object({ entry: journalRowSchema, replayed: z.boolean() });
const actionId = { profileId: id, clientOrderId: id };

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

const checkedPayoutSchema = z.object({
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

const cardInfoSchema = z.object({
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

const schedulePreviewSchema = z.object({
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

const payLinkViewSchema = z.object({
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

/**
 * Where the app's start or shutdown is, for the window that opens before the services do: what
 * is being done now, and, while the keychain has not answered within its bound, the sentence
 * that says what to do and the choices (try again, or go on without it).
 */
const lifecycleSchema = z.object({
  phase: z.enum(['starting', 'keychain-waiting', 'ready', 'stopping', 'failed']),
  /** What is being done now, in a few words ("Opening the journal"). */
  step: z.string(),
  /** A sentence for the person: what happened and what to do. */
  message: z.string().optional(),
});

/** Settings -> Updates: the version running, what the feed offers, and whether to install now. */
const updateViewSchema = z.object({
  running: z.string(),
  feed: z.string(),
  phase: z.enum(['off', 'idle', 'checking', 'up-to-date', 'downloading', 'ready', 'failed']),
  offered: z.string().nullable(),
  percent: z.number().nullable(),
  checkedAt: z.string().nullable(),
  message: z.string().nullable(),
  install: z.union([
    z.object({ allowed: z.literal(true) }),
    z.object({ allowed: z.literal(false), reason: z.string() }),
  ]),
});

const trustedCaSchema = z.object({
  certificates: z.array(
    z.object({
      subject: z.string(),
      issuer: z.string(),
      validTo: z.string(),
      fingerprint: z.string(),
    }),
  ),
});

const saveResultSchema = z.object({ saved: z.boolean(), path: z.string().optional() });
/** An export says how many entries it wrote: the notice never counts a later search. */
const exportResultSchema = saveResultSchema.extend({
  count: z.number().int().nonnegative(),
  /** The journal export's totals, in a file beside it (NAME.totals.csv). */
  totalsPath: z.string().optional(),
});

const startupReportSchema = z.object({
  version: z.string(),
  operator: z.string(),
  keychain: z.object({ usable: z.boolean(), message: z.string().optional() }),
  /** writable false: the database is damaged, read-only or unwritable; the app is read-only. */
  store: z.object({
    writable: z.boolean(),
    code: z.string().optional(),
    message: z.string().optional(),
    file: z.string(),
    /** A missing or empty journal (code MISSING or EMPTY) offers this backup. */
    latestBackup: z.object({ name: z.string(), takenAt: z.string() }).optional(),
    /** What this start restored (or began anew), and where the replaced file was kept. */
    restored: z
      .object({
        kind: z.enum(['restore', 'new-journal']),
        backup: z.string().optional(),
        keptAside: z.string().optional(),
        problem: z.string().optional(),
      })
      .optional(),
  }),
  firstRun: z.boolean(),
  /** Which journal this desk writes; a team journal unusable at start says why. */
  journal: z.object({
    kind: z.enum(['local', 'team']),
    reachable: z.boolean().optional(),
    where: z.string().optional(),
    message: z.string().optional(),
  }),
  sandbox: z.object({
    running: z.boolean(),
    baseUrl: z.string().optional(),
    profileId: z.string().optional(),
    message: z.string().optional(),
  }),
});

const callbackCheckSchema = z.object({
  verdict: z.enum(['genuine', 'other-profile', 'altered', 'checksum-only', 'forged', 'incomplete']),
  message: z.string(),
  readAs: z.enum(['url', 'query', 'form']),
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
  orderid: z.string().optional(),
  clientOrderId: z.string().optional(),
  status: z.string().optional(),
  matchedProfile: z.object({ id: z.string(), name: z.string() }).optional(),
  differences: z
    .array(
      z.object({
        field: z.enum(['status', 'amount', 'currency', 'type']),
        callback: z.string(),
        gateway: z.string(),
      }),
    )
    .optional(),
});

const batchRowSchema = z.object({
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

const batchViewSchema = z.object({
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

/** Uploading a desk's local journal to its team's (main/services/team/upload.ts). */
const uploadPlanSchema = z.object({
  entries: z.number().int(),
  sandbox: z.number().int(),
  unsettled: z.array(
    z.object({
      clientOrderId: z.string(),
      operation: z.string(),
      state: z.string(),
      createdAt: z.string(),
    }),
  ),
  profiles: z.array(
    z.object({
      localId: z.string(),
      name: z.string(),
      entries: z.number().int(),
      sharedId: z.string().nullable(),
      sharedName: z.string().nullable(),
      how: z.enum(['same-id', 'same-gateway', 'chosen']).nullable(),
    }),
  ),
  lastUpload: z
    .object({
      at: z.string(),
      login: z.string(),
      uploaded: z.number().int(),
      present: z.number().int(),
    })
    .nullable(),
});

const uploadReportSchema = z.object({
  uploaded: z.number().int(),
  alreadyThere: z.number().int(),
  sandbox: z.number().int(),
  clashes: z.array(z.string()),
  at: z.string(),
  firstUploadAt: z.string().nullable(),
});

const byBatch = z.object({ batchId: z.number().int().min(1) }).strict();

const empty = z.object({}).strict();
const byProfile = z.object({ profileId: id }).strict();
const byId = z.object({ id }).strict();

interface CallDef<Req extends z.ZodType, Res extends z.ZodType> {
  request: Req;
  result: Res;
}
const call = <Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  result: Res,
): CallDef<Req, Res> => ({ request, result });

export const contract = {
  app: {
    status: call(empty, startupReportSchema),
  },
  /** Settings -> Network: a CA trusted besides the built-in ones (a company's TLS proxy). */
  network: {
    trustedCa: call(empty, trustedCaSchema),
    saveTrustedCa: call(
      z.object({ pem: text(65_536).min(1, 'Paste the CA certificate.') }).strict(),
      trustedCaSchema,
    ),
    clearTrustedCa: call(empty, trustedCaSchema),
  },
  /** Settings -> Updates. install quits Paydesk only when nothing is in flight (else the reason). */
  updates: {
    state: call(empty, updateViewSchema),
    check: call(empty, updateViewSchema),
    install: call(
      empty,
      z.union([
        z.object({ installing: z.literal(true) }),
        z.object({ installing: z.literal(false), reason: z.string() }),
      ]),
    ),
  },
  /** Answered from the first moment the window exists, before the services have started. */
  lifecycle: {
    state: call(empty, lifecycleSchema),
    /** Asks the keychain again after it did not answer within its bound. */
    retryKeychain: call(empty, lifecycleSchema),
    /** Starts without the keychain: keys and the built-in sandbox stay off until a restart. */
    skipKeychain: call(empty, lifecycleSchema),
  },
  profiles: {
    list: call(empty, z.array(profileViewSchema)),
    create: call(
      profileInputSchema
        .extend({ controlKey: profileText(1024, 'control key').min(1, 'Enter the control key.') })
        .strict(),
      profileViewSchema,
    ),
    update: call(
      z
        .object({
          id,
          profile: profileInputSchema
            .extend({ controlKey: profileText(1024, 'control key').optional() })
            .strict(),
        })
        .strict(),
      profileViewSchema,
    ),
    remove: call(byId, z.null()),
    testConnection: call(byId, z.object({ ok: z.boolean(), message: z.string() })),
  },
  keys: {
    current: call(byProfile, publicKeyViewSchema.nullable()),
    generate: call(
      z
        .object({
          profileId: id,
          bits: z.union([z.literal(2048), z.literal(3072), z.literal(4096)]),
        })
        .strict(),
      publicKeyViewSchema,
    ),
    import: call(keyImportSchema, publicKeyViewSchema),
    /**
     * Reads a PEM as import would (RSA, size, passphrase, the profile's environment rule) and
     * stores nothing: the screen checks first and asks to replace a key second.
     */
    checkImport: call(keyImportSchema, z.object({ fingerprint: z.string(), bits: z.number() })),
    /** Opens a save dialog in main and writes public_key.pem. */
    savePublicKey: call(byProfile, saveResultSchema),
    /** Copies the public key PEM to the clipboard from main (the renderer has no clipboard permission). */
    copyPublicKey: call(byProfile, z.null()),
  },
  orders: {
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
  },
  payouts: {
    /** One step (v2 PAYOUT): paid at once. */
    send: call(payoutRequestSchema, actionResultSchema),
    /** Step one of two (v4 PAYOUT_V4_CHECK): registered, not paid. */
    check: call(payoutRequestSchema, actionResultSchema),
    /** Checked payouts waiting to be paid, with who checked them and when. */
    toPay: call(byProfile, z.array(checkedPayoutSchema)),
    /** Step two (v4 PAYOUT_V4_PAY): pays a checked payout, once. */
    pay: call(z.object({ ...actionId, checkClientOrderId: id }).strict(), actionResultSchema),
  },
  cards: {
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
  },
  recurring: {
    preview: call(recurringInputSchema, schedulePreviewSchema),
    create: call(recurringRequestSchema, actionResultSchema.extend({ cardRefId: z.string() })),
  },
  payLinks: {
    create: call(payLinkRequestSchema, actionResultSchema),
    list: call(byProfile, z.array(payLinkViewSchema)),
    /** Copies a link's address to the clipboard from main (the renderer has no clipboard permission). */
    copy: call(z.object({ ...actionId }).strict(), z.null()),
  },
  journal: {
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
  },
  batches: {
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
  },
  /** Which journal this desk writes, as whom, in which Paydesk groups, and whether it is reachable. */
  session: {
    get: call(empty, sessionSchema),
  },
  /** Settings -> Team journal (common/team-contract.ts). */
  team: {
    settings: call(teamCalls.settings.request, teamCalls.settings.result),
    test: call(teamCalls.test.request, teamCalls.test.result),
    use: call(teamCalls.use.request, teamCalls.use.result),
    stop: call(teamCalls.stop.request, teamCalls.stop.result),
    /**
     * Saves team.sql, the team database's setup for a database administrator to run with psql
     * (docs/team.md): the same schema as `npm run team:init`, for this Paydesk's version.
     */
    saveSetupSql: call(empty, saveResultSchema),
    /** Reads the team's shared profiles into this desk's copy now (it also does at start). */
    refreshProfiles: call(
      empty,
      z.object({ shared: z.number().int(), setAside: z.number().int() }),
    ),
    /** What uploading this desk's local journal would do, and what stands in its way. */
    planLocalJournalUpload: call(
      z.object({ profileMap: z.record(id, id).optional() }).strict(),
      uploadPlanSchema,
    ),
    /** Uploads this desk's settled local journal to the team's, once; safe to run again. */
    uploadLocalJournal: call(
      z.object({ profileMap: z.record(id, id).optional() }).strict(),
      uploadReportSchema,
    ),
  },
  backups: {
    status: call(backupCalls.status.request, backupCalls.status.result),
    backUpNow: call(backupCalls.backUpNow.request, backupCalls.backUpNow.result),
    setFolder: call(backupCalls.setFolder.request, backupCalls.setFolder.result),
    chooseFolder: call(backupCalls.chooseFolder.request, backupCalls.chooseFolder.result),
    restore: call(backupCalls.restore.request, backupCalls.restore.result),
    startNewJournal: call(backupCalls.startNewJournal.request, backupCalls.startNewJournal.result),
  },
  support: {
    saveBundle: call(supportCalls.saveBundle.request, supportCalls.saveBundle.result),
  },
  /** Reports -> Daily close (common/report-contract.ts). */
  reports: {
    summary: call(reportCalls.summary.request, reportCalls.summary.result),
    exportCsv: call(reportCalls.exportCsv.request, reportCalls.exportCsv.result),
  },
  /** Reconciliation: the journal's entries asked about again at the gateway (reconcile-contract.ts). */
  reconcile: {
    create: call(reconcileCalls.create.request, reconcileCalls.create.result),
    list: call(reconcileCalls.list.request, reconcileCalls.list.result),
    get: call(reconcileCalls.get.request, reconcileCalls.get.result),
    findings: call(reconcileCalls.findings.request, reconcileCalls.findings.result),
    pause: call(reconcileCalls.pause.request, reconcileCalls.pause.result),
    resume: call(reconcileCalls.resume.request, reconcileCalls.resume.result),
    saveCsv: call(reconcileCalls.saveCsv.request, reconcileCalls.saveCsv.result),
    savePdf: call(reconcileCalls.savePdf.request, reconcileCalls.savePdf.result),
  },
  tools: {
    /** Is a callback a shop received genuine? Checked in main with the profile's control key. */
    checkCallback: call(
      z
        .object({
          profileId: id,
          text: text(16_384).trim().min(1, 'Paste the callback first.'),
        })
        .strict(),
      callbackCheckSchema,
    ),
  },
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

export type OrderViewData = z.output<typeof orderViewSchema>;
export type JournalRow = z.output<typeof journalRowSchema>;
export type CheckedPayout = z.output<typeof checkedPayoutSchema>;
export type CardInfoData = z.output<typeof cardInfoSchema>;
export type SchedulePreviewData = z.output<typeof schedulePreviewSchema>;
export type PayLinkData = z.output<typeof payLinkViewSchema>;
export type JournalFilterInput = z.input<typeof journalFilterSchema>;
export type CallbackCheckData = z.output<typeof callbackCheckSchema>;
export type BatchViewData = z.output<typeof batchViewSchema>;
export type TrustedCaData = z.output<typeof trustedCaSchema>;
export type UpdateViewData = z.output<typeof updateViewSchema>;
export type LifecycleData = z.output<typeof lifecycleSchema>;
export type BatchRowData = z.output<typeof batchRowSchema>;

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
