// Settings -> Backups, the stop for a missing or empty journal, and the support bundle: their
// calls, kept beside contract.ts, which lists them in the contract. Backups are files in a folder
// on this computer; the bridge carries their names and times, never their content.

import { z } from 'zod';

import { empty, saveResultSchema } from './contract-fields';
import { str } from './text-schema';

const backupFileSchema = z.object({
  name: z.string(),
  path: z.string(),
  takenAt: z.string(),
  bytes: z.number().int().nonnegative(),
});

const backupStatusSchema = z.object({
  folder: z.string(),
  defaultFolder: z.string(),
  everyHours: z.number(),
  retention: z.string(),
  backups: z.array(backupFileSchema),
  paused: z.string().optional(),
  team: z.string().optional(),
  lastError: z.string().optional(),
});

const restartSchema = z.object({ restarting: z.boolean(), message: z.string() });

/** A backup's file name as Paydesk writes it: nothing else in the folder can be restored. */
const backupName = str().regex(
  /^paydesk-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.sqlite$/,
  'Choose one of the backups listed.',
);

export const backupCalls = {
  status: { request: empty, result: backupStatusSchema },
  backUpNow: { request: empty, result: backupFileSchema },
  setFolder: {
    request: z
      .object({
        folder: str()
          .trim()
          .min(1, 'Enter the folder for backups.')
          .max(4096, 'A folder path is at most 4096 characters.'),
      })
      .strict(),
    result: backupStatusSchema,
  },
  /** The folder chosen with the system's folder picker, checked and saved as setFolder's. */
  chooseFolder: {
    request: empty,
    result: z.object({ chosen: z.boolean(), status: backupStatusSchema }),
  },
  /** Restores `name` at a restart: the app's writes stop first, the current file is kept aside. */
  restore: { request: z.object({ name: backupName }).strict(), result: restartSchema },
  /** Only where the journal is missing or empty: begins a new one at a restart. */
  startNewJournal: { request: empty, result: restartSchema },
} as const;

export const supportCalls = {
  /** Saves the support bundle through the save dialog: versions, settings, log, integrity. */
  saveBundle: {
    request: empty,
    result: saveResultSchema,
  },
} as const;
