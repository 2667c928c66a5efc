// What a desk on a team does with it beyond its settings (team-contract.ts): the setup SQL for
// the database administrator, the team's shared profiles read into this desk, and uploading this
// desk's own journal to the team's. Kept beside contract.ts, which lists them with the settings'
// calls under `team`.

import { z } from 'zod';

import { call, empty, id, saveResultSchema } from './contract-fields';

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

export const teamDeskCalls = {
  /**
   * Saves team.sql, the team database's setup for a database administrator to run with psql
   * (docs/team.md): the same schema as `npm run team:init`, for this Paydesk's version.
   */
  saveSetupSql: call(empty, saveResultSchema),
  /** Reads the team's shared profiles into this desk's copy now (it also does at start). */
  refreshProfiles: call(empty, z.object({ shared: z.number().int(), setAside: z.number().int() })),
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
} as const;
