// The team journal's calls (Settings -> Team journal) and the session every screen reads to
// show only what the person's role allows. Kept beside contract.ts, which lists them in the
// contract. The password is write-only: it goes to main in a request and never comes back.

import { z } from 'zod';

import { plainConnectionProblem } from './this-computer';
import { unsafeTextMessage } from './text-rules';
import { str } from './text-schema';

export { isThisComputer, plainConnectionProblem } from './this-computer';
const field = (max: number, label: string, empty: string) =>
  str()
    .max(max, `The ${label} is at most ${max} characters.`)
    .trim()
    .min(1, empty)
    .superRefine((value, ctx) => {
      const message = unsafeTextMessage(value, label);
      if (message) ctx.addIssue({ code: 'custom', message });
    });

export const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

const teamSettingsShape = {
  host: field(253, 'server', 'Enter the PostgreSQL server (its host name or address).').regex(
    /^[^\s/@?#]+$/,
    'Enter the server alone (db.example.com or 10.0.0.5), without spaces, a scheme, a port or a path.',
  ),
  port: z
    .number({ message: 'Enter the port, a number (5432 by default).' })
    .int('Enter the port as a whole number.')
    .min(1, 'The port is between 1 and 65535.')
    .max(65_535, 'The port is between 1 and 65535.'),
  database: field(63, 'database', 'Enter the database name your administrator gave you.'),
  login: field(63, 'login', 'Enter your own database login.'),
  desk: field(64, 'desk name', 'Give this desk a name (it is stored with every entry).'),
  tls: z.enum(['verified', 'none']),
  caPem: str()
    .max(65_536, 'That CA certificate is too long (at most 64 KiB).')
    .trim()
    .refine(
      (v) => v === '' || PEM_CERTIFICATE.test(v),
      'Paste the CA certificate as PEM, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.',
    )
    .optional(),
};

type SettingsLike = { host: string; tls: 'verified' | 'none' };
const tlsRule = (value: SettingsLike, ctx: z.RefinementCtx) => {
  if (value.tls !== 'none') return;
  const problem = plainConnectionProblem(value.host);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['tls'] });
};

/** What the desk keeps in its data folder (team.json): everything but the password. */
export const teamSettingsSchema = z.object(teamSettingsShape).strict().superRefine(tlsRule);

/**
 * What the screen sends. `password` empty or absent: keep the one saved in the keychain (the
 * screen never sees it, so it cannot send it back).
 */
export const teamSettingsInputSchema = z
  .object({
    ...teamSettingsShape,
    password: str().max(1024, 'The password is at most 1024 characters.').optional(),
  })
  .strict()
  .superRefine(tlsRule);

export const teamGroupSchema = z.enum(['paydesk_support', 'paydesk_finance', 'paydesk_admin']);

export const teamCalls = {
  /** The saved settings (never the password: only whether one is in the keychain). */
  settings: {
    request: z.object({}).strict(),
    result: z.object({
      settings: z
        .object({
          host: z.string(),
          port: z.number().int(),
          database: z.string(),
          login: z.string(),
          desk: z.string(),
          tls: z.enum(['verified', 'none']),
          caPem: z.string().optional(),
        })
        .nullable(),
      passwordSaved: z.boolean(),
      /** Where the settings are kept, for the screen to say. */
      file: z.string(),
      /**
       * The team's profiles this desk keeps set aside (after leaving the team, or removed by it),
       * with its keys for them, by name: not listed, not used, back if the desk joins again.
       */
      keptFromTeam: z.array(z.string()),
    }),
  },
  /** Connects with these settings, checks, and closes: what openTeamJournal found. */
  test: {
    request: teamSettingsInputSchema,
    result: z.object({
      login: z.string(),
      groups: z.array(z.string()),
      schemaVersion: z.number().int(),
      where: z.string(),
    }),
  },
  /** Tests, then saves the settings (the password in the keychain) and restarts on the team journal. */
  use: {
    request: teamSettingsInputSchema,
    result: z.object({ restarting: z.boolean(), message: z.string() }),
  },
  /** Back to this desk's own journal (kept intact all along); the password leaves the keychain. */
  stop: {
    request: z.object({}).strict(),
    result: z.object({ restarting: z.boolean(), message: z.string() }),
  },
} as const;

export const sessionSchema = z.object({
  journal: z.enum(['local', 'team']),
  /** The OS user on the local journal; the database login on a team. */
  login: z.string(),
  desk: z.string().nullable(),
  groups: z.array(z.string()),
  /** False while the team's database cannot be reached or refuses this desk. */
  reachable: z.boolean(),
  /** Why not, in a sentence for the person (the StoreError's). */
  problem: z.string().optional(),
  /** "PostgreSQL at db.example.com:5432". */
  where: z.string().optional(),
});

export type TeamSettingsInput = z.input<typeof teamSettingsInputSchema>;
export type SessionData = z.output<typeof sessionSchema>;
