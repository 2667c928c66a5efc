// team.json's shape, checked with zod (common/team-contract.ts's schema). Loaded only when a
// desk reads or writes team.json (main/services/team/settings.ts): loading zod and the
// contract's team schemas is work that a desk on its own journal (and every first start) need
// not do.

import { z } from 'zod';

import { teamSettingsSchema } from '../../../common/team-contract';

export type SavedTeamSettings = z.output<typeof teamSettingsSchema>;

const fileSchema = z.object({ version: z.literal(1), settings: teamSettingsSchema }).strict();

/** team.json's content as settings, or the first reason it is not. */
export function parseTeamFile(
  content: unknown,
): { ok: true; settings: SavedTeamSettings } | { ok: false; reason: string } {
  const parsed = fileSchema.safeParse(content);
  return parsed.success
    ? { ok: true, settings: parsed.data.settings }
    : { ok: false, reason: parsed.error.issues[0]?.message ?? 'unknown field' };
}

/** The settings as they are written: checked, and the whole file's content. */
export function teamFileContent(settings: SavedTeamSettings): string {
  const checked = teamSettingsSchema.parse(settings);
  return `${JSON.stringify({ version: 1, settings: checked }, null, 2)}\n`;
}
