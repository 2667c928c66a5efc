// The app itself (its start and shutdown, updates, the network's trusted CA) and the tools beside
// the screens (the callback check): their calls, kept beside contract.ts, which lists them in the
// contract.

import { z } from 'zod';

import { call, empty, id, text } from './contract-fields';

/**
 * Where the app's start or shutdown is, for the window that opens before the services do: what
 * is being done now, and, while the keychain has not answered within its bound, the sentence
 * that says what to do and the choices (try again, or go on without it).
 */
export const lifecycleSchema = z.object({
  phase: z.enum(['starting', 'keychain-waiting', 'ready', 'stopping', 'failed']),
  /** What is being done now, in a few words ("Opening the journal"). */
  step: z.string(),
  /** A sentence for the person: what happened and what to do. */
  message: z.string().optional(),
});

/** Settings -> Updates: the version running, what the feed offers, and whether to install now. */
export const updateViewSchema = z.object({
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

export const trustedCaSchema = z.object({
  certificates: z.array(
    z.object({
      subject: z.string(),
      issuer: z.string(),
      validTo: z.string(),
      fingerprint: z.string(),
    }),
  ),
});

export const startupReportSchema = z.object({
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

export const callbackCheckSchema = z.object({
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

export const appCalls = {
  status: call(empty, startupReportSchema),
} as const;

/** Settings -> Network: a CA trusted besides the built-in ones (a company's TLS proxy). */
export const networkCalls = {
  trustedCa: call(empty, trustedCaSchema),
  saveTrustedCa: call(
    z.object({ pem: text(65_536).min(1, 'Paste the CA certificate.') }).strict(),
    trustedCaSchema,
  ),
  clearTrustedCa: call(empty, trustedCaSchema),
} as const;

/** Settings -> Updates. install quits Paydesk only when nothing is in flight (else the reason). */
export const updateCalls = {
  state: call(empty, updateViewSchema),
  check: call(empty, updateViewSchema),
  install: call(
    empty,
    z.union([
      z.object({ installing: z.literal(true) }),
      z.object({ installing: z.literal(false), reason: z.string() }),
    ]),
  ),
} as const;

/** Answered from the first moment the window exists, before the services have started. */
export const lifecycleCalls = {
  state: call(empty, lifecycleSchema),
  /** Asks the keychain again after it did not answer within its bound. */
  retryKeychain: call(empty, lifecycleSchema),
  /** Starts without the keychain: keys and the built-in sandbox stay off until a restart. */
  skipKeychain: call(empty, lifecycleSchema),
} as const;

export const toolCalls = {
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
} as const;

export type CallbackCheckData = z.output<typeof callbackCheckSchema>;
export type TrustedCaData = z.output<typeof trustedCaSchema>;
export type UpdateViewData = z.output<typeof updateViewSchema>;
export type LifecycleData = z.output<typeof lifecycleSchema>;
