// PaydeskServices started on a team journal (StartOptions.journal, as the Settings -> Team
// journal code passes a PgJournal): every service writes there, the app says which store it
// runs on, and another desk of the team reads what this one did.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { toBridgeError } from '../../main/bridge';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';

const withPostgres = postgresForTests('the app on a team journal');

describe.skipIf(!withPostgres)('the app on a team journal (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let dataDir: string;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'app_team');
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-app-team-'));
  });
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Ann's desk on the team journal, with its own data folder (and so its own Sandbox). */
  const annsDesk = (folder: string) =>
    PaydeskServices.start({
      dataDir: folder,
      secrets: new MemorySecretStore(),
      operator: 'whoever-the-os-says',
      wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
      sandboxDelayMs: 50,
      journal: team.desk('ann', 'Front-1'),
    });

  it('writes its refunds to the team journal, where another desk sees them', async () => {
    const app = await annsDesk(dataDir);
    try {
      expect(app.port.store).toBe('postgres');
      expect(await app.reconciled).toEqual([]);
      const [profile] = await app.profiles.list();
      // Shared profiles are the team's (docs/team.md): the admin has put this one there.
      await team.addProfile(profile!.id);
      const order = await app.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1001' });
      const { clientOrderId } = app.orders.openAction();
      await app.orders.refund({
        profileId: profile!.id,
        orderid: order.orderId,
        clientOrderId,
        amount: '1.00',
        reason: 'Goodwill',
      });
      expect(await app.orders.settled(clientOrderId)).toMatchObject({
        state: 'final',
        status: 'approved',
        // The login that wrote it, not what the desk's OS calls its user.
        operator: 'ann',
      });
      const detail = await app.journal.entry(clientOrderId);
      expect(detail.history.map((h) => h.state).at(-1)).toBe('final');
      const bob = team.desk('bob', 'Back-1');
      expect(await bob.get(clientOrderId)).toMatchObject({ state: 'final', amountMinor: 100n });
      const again = await app.orders.lookup(profile!.id, { orderid: order.orderId });
      expect(again.refunded).toBe('1.00');
    } finally {
      await app.close();
    }
  }, 60_000);

  it('refuses a refund on the desk’s own Sandbox before sending it, and says nothing was sent', async () => {
    // The built-in Sandbox stays this desk's training profile (docs/team.md): the team journal
    // holds only shared profiles, so its actions cannot be journaled there.
    const folder = mkdtempSync(join(tmpdir(), 'paydesk-app-team-sandbox-'));
    const app = await annsDesk(folder);
    try {
      const sandboxProfile = (await app.profiles.list()).find((p) => p.embedded);
      expect(sandboxProfile).toBeDefined();
      const profileId = sandboxProfile!.id;
      const order = await app.orders.lookup(profileId, { client_orderid: 'demo-sale-1001' });
      const { clientOrderId } = app.orders.openAction();
      const refused = await app.orders
        .refund({
          profileId,
          orderid: order.orderId,
          clientOrderId,
          amount: '1.00',
          reason: 'Goodwill',
        })
        .catch((e: unknown) => e);
      const shown = toBridgeError(refused);
      // The screen keeps the form and says "Nothing was sent", never "may or may not".
      expect(shown.delivery).toBe('nothing-sent');
      expect(shown.message).toMatch(/Sandbox.*only the team.s shared profiles.*Nothing was sent/s);
      expect(await app.port.get(clientOrderId)).toBeUndefined();
      const again = await app.orders.lookup(profileId, { orderid: order.orderId });
      expect(again.refunded).toBe(order.refunded);
    } finally {
      await app.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
