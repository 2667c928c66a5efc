// A whole desk for the team-mode tests: Paydesk's services started as the app starts them (its
// own data folder, its own keychain, the embedded sandbox), joining the team's PostgreSQL with
// the person's own login through openTeamJournal, as Settings → Team journal will.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MemorySecretStore } from '../../../main/secrets';
import { PaydeskServices } from '../../../main/services/app';
import { openTeamJournal, type TeamJournal } from '../../../main/store/postgres/connect';
import type { Person, TeamDb } from '../../support/team';

export interface TestDesk {
  app: PaydeskServices;
  secrets: MemorySecretStore;
  /** Opens the team journal as the person and puts this desk on the team. */
  join(): Promise<TeamJournal>;
  close(): Promise<void>;
}

export async function startDesk(team: TeamDb, person: Person, desk: string): Promise<TestDesk> {
  const dataDir = mkdtempSync(join(tmpdir(), `paydesk-${desk}-`));
  const secrets = new MemorySecretStore();
  const app = await PaydeskServices.start({
    dataDir,
    secrets,
    operator: `os-${person}`,
    sandboxDelayMs: 50,
    wait: { delayAfter: () => 25, giveUpAfterMs: 5_000 },
  });
  let opened: TeamJournal | undefined;
  return {
    app,
    secrets,
    async join() {
      const url = new URL(team.urlOf(person));
      opened = await openTeamJournal({
        host: url.hostname,
        port: Number(url.port),
        database: team.database,
        login: person,
        password: decodeURIComponent(url.password),
        desk,
      });
      await app.team.profiles.join(opened);
      return opened;
    },
    async close() {
      await app.close();
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
