// A whole desk for the team-mode tests: Paydesk's services started as the app starts them (its
// own data folder, its own keychain, the embedded sandbox), joining the team's PostgreSQL with
// the person's own login, as the desk's open team journal does (Settings → Team journal).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { MemorySecretStore } from '../../../main/secrets';
import { PaydeskServices } from '../../../main/services/app';
import type { TeamLink } from '../../../main/services/team/profiles';
import type { Person, TeamDb } from '../../support/team';

/**
 * What a desk's open team journal gives the shared profiles and the upload: its pool, the login
 * and its groups (from paydesk.me, the server's word), the desk's name and the server.
 */
export async function teamLinkOf(
  team: TeamDb,
  person: Person,
  desk: string,
): Promise<TeamLink & { close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: team.urlOf(person), max: 4 });
  pool.on('error', () => undefined);
  // What the app's session asks the database (journal-at-start.ts): who the login is now.
  const me = async () =>
    (await pool.query<{ login: string; roles: string[] }>('SELECT login, roles FROM paydesk.me'))
      .rows[0]!;
  const { login, roles } = await me();
  const url = new URL(team.urlOf(person));
  return {
    pool,
    login,
    roles,
    whoAmI: async () => {
      const now = await me();
      return { reachable: true, login: now.login, groups: now.roles };
    },
    desk,
    where: `PostgreSQL at ${url.hostname}:${url.port}`,
    close: () => pool.end(),
  };
}

export interface TestDesk {
  app: PaydeskServices;
  secrets: MemorySecretStore;
  /** Connects to the team as the person and puts this desk on the team. */
  join(): Promise<void>;
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
  let opened: Awaited<ReturnType<typeof teamLinkOf>> | undefined;
  return {
    app,
    secrets,
    async join() {
      opened = await teamLinkOf(team, person, desk);
      await app.team.profiles.join(opened);
    },
    async close() {
      await app.close();
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
