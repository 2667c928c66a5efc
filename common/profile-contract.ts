// Settings -> Profiles and Keys: their calls, kept beside contract.ts, which lists them in the
// contract. A control key or a private key goes to main in a request and never comes back: the
// views say only whether one is stored, and a key's fingerprint.

import { z } from 'zod';

import {
  byId,
  byProfile,
  call,
  empty,
  id,
  profileText,
  saveResultSchema,
  text,
} from './contract-fields';

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

export const profileViewSchema = z.object({
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

export const keyHistorySchema = z.object({
  fingerprint: z.string(),
  environment: environmentSchema,
  attachedAt: z.string(),
  retiredAt: z.string().nullable(),
});

export const publicKeyViewSchema = z.object({
  profileId: z.string(),
  fingerprint: z.string(),
  bits: z.number().int(),
  publicKeySpkiPem: z.string(),
  publicKeyPkcs1Pem: z.string(),
  history: z.array(keyHistorySchema),
});

export const keyImportSchema = z
  .object({
    profileId: id,
    pem: text(65_536).min(1, 'Paste the private key PEM.'),
    passphrase: text(1024).optional(),
  })
  .strict();

export const profileCalls = {
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
} as const;

export const keyCalls = {
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
} as const;
