// Where a desk keeps its team journal settings: everything but the password in team.json in the
// desk's data folder (small, validated on every read, written whole by rename so a crash leaves
// the old file or the new one), the password in the OS keychain. No file: the local journal.
// The file's schema (zod) loads only when there is a file to read or one to write.

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { SecretStore } from '../../secrets';
import type { TeamSettings } from '../../store/postgres/connect';
import { ServiceError } from '../errors';
import type { SavedTeamSettings } from './settings-file';

export type { SavedTeamSettings } from './settings-file';

const fileSchema = () => import('./settings-file');

export const TEAM_SETTINGS_FILE = 'team.json';
/** The keychain "profile" of the team password: account `team-journal:team-password`. */
export const TEAM_SECRET_ID = 'team-journal';

export function teamSettingsFile(dataDir: string): string {
  return join(dataDir, TEAM_SETTINGS_FILE);
}

/**
 * The saved settings, or undefined on the local journal. A file that does not read as settings
 * throws, saying where it is and what to do: the desk must not quietly go back to its own journal
 * (that would split the team's).
 */
export async function readTeamSettings(dataDir: string): Promise<SavedTeamSettings | undefined> {
  const file = teamSettingsFile(dataDir);
  if (!existsSync(file)) return undefined;
  const { parseTeamFile } = await fileSchema();
  let parsed: ReturnType<typeof parseTeamFile>;
  try {
    parsed = parseTeamFile(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new ServiceError(
      'INPUT',
      `The team journal settings in ${file} cannot be read (${(error as Error).message}). Enter them again in Settings -> Team journal, or remove the file to use this desk's own journal.`,
    );
  }
  if (!parsed.ok)
    throw new ServiceError(
      'INPUT',
      `The team journal settings in ${file} are not valid (${parsed.reason}). Enter them again in Settings -> Team journal, or remove the file to use this desk's own journal.`,
    );
  return parsed.settings;
}

export async function writeTeamSettings(
  dataDir: string,
  settings: SavedTeamSettings,
): Promise<void> {
  const file = teamSettingsFile(dataDir);
  const content = (await fileSchema()).teamFileContent(settings);
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  renameSync(temporary, file);
}

export function removeTeamSettings(dataDir: string): void {
  rmSync(teamSettingsFile(dataDir), { force: true });
}

export function readTeamPassword(secrets: SecretStore): Promise<string | undefined> {
  return secrets.get(TEAM_SECRET_ID, 'team-password');
}

export function saveTeamPassword(secrets: SecretStore, password: string): Promise<void> {
  return secrets.set(TEAM_SECRET_ID, 'team-password', password);
}

export function forgetTeamPassword(secrets: SecretStore): Promise<boolean> {
  return secrets.delete(TEAM_SECRET_ID, 'team-password');
}

/** What openTeamJournal takes: the saved settings with the password from the keychain. */
export function withPassword(settings: SavedTeamSettings, password: string): TeamSettings {
  return {
    host: settings.host,
    port: settings.port,
    database: settings.database,
    login: settings.login,
    password,
    desk: settings.desk,
    tls: settings.tls,
    ...(settings.caPem ? { caPem: settings.caPem } : {}),
  };
}
