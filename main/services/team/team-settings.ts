// Settings -> Team journal: test a connection, use it (settings in team.json, the password in the
// keychain), or stop using it (back to the desk's own journal, which was kept intact all along).
// Switching journals takes a restart of the services: they open their journal once, at start.

import type { z } from 'zod';

import type { teamCalls, teamSettingsInputSchema } from '../../../common/team-contract';
import type { SecretStore } from '../../secrets';
import type { TeamOpenOptions } from '../../store/postgres/connect';
import { ServiceError } from '../errors';
import {
  forgetTeamPassword,
  readTeamPassword,
  readTeamSettings,
  removeTeamSettings,
  saveTeamPassword,
  teamSettingsFile,
  withPassword,
  writeTeamSettings,
  type SavedTeamSettings,
} from './settings';

type Input = z.output<typeof teamSettingsInputSchema>;
type SettingsView = z.output<typeof teamCalls.settings.result>;
type TestView = z.output<typeof teamCalls.test.result>;

export class TeamSettingsService {
  constructor(
    private readonly dataDir: string,
    private readonly secrets: SecretStore,
    private readonly options: TeamOpenOptions = {},
    /** The team's copies this desk keeps set aside (TeamMirror.keptFromTeam). */
    private readonly keptFromTeam: () => string[] = () => [],
  ) {}

  async current(): Promise<SettingsView> {
    const settings = (await readTeamSettings(this.dataDir)) ?? null;
    const passwordSaved = settings ? (await readTeamPassword(this.secrets)) !== undefined : false;
    return {
      settings,
      passwordSaved,
      file: teamSettingsFile(this.dataDir),
      keptFromTeam: this.keptFromTeam(),
    };
  }

  /** Connects, checks and closes: who the login is, its Paydesk groups, the schema's version. */
  async test(input: Input): Promise<TestView> {
    const { settings, password } = await this.complete(input);
    // PostgreSQL's client, loaded when first needed (main/services/team/journal-at-start.ts).
    const { openTeamJournal } = await import('../../store/postgres/connect');
    const opened = await openTeamJournal(withPassword(settings, password), this.options);
    try {
      return {
        login: opened.login,
        groups: opened.roles,
        schemaVersion: opened.schemaVersion,
        where: `PostgreSQL at ${settings.host}:${settings.port}`,
      };
    } finally {
      await opened.close();
    }
  }

  /** Tested first (a desk never restarts into settings that do not work), then saved. */
  async use(input: Input): Promise<TestView> {
    const found = await this.test(input);
    const { settings, password } = await this.complete(input);
    await saveTeamPassword(this.secrets, password);
    await writeTeamSettings(this.dataDir, settings);
    return found;
  }

  /** Back to the desk's own journal: the settings file and the keychain's password go. */
  async stop(): Promise<void> {
    removeTeamSettings(this.dataDir);
    await forgetTeamPassword(this.secrets);
  }

  /** The settings to save, and the password: the one typed, or the one already in the keychain. */
  private async complete(input: Input): Promise<{ settings: SavedTeamSettings; password: string }> {
    const { password: typed, caPem, ...rest } = input;
    const settings: SavedTeamSettings = { ...rest, ...(caPem ? { caPem } : {}) };
    const password = typed ? typed : await readTeamPassword(this.secrets);
    if (!password)
      throw new ServiceError(
        'INPUT',
        'Enter your database password (it is kept in this computer\u2019s keychain, never in a file).',
        'password',
      );
    return { settings, password };
  }
}
