// A write-ahead that PostgreSQL committed while its answer was lost on the way back: the entry
// is in the team journal, but the desk only saw its connection end, so it told the clerk
// "nothing was sent" (true: the request leaves only after the write-ahead is known written).
// The clerk presses again with the same action: that press finds the entry, and, being the desk
// process that wrote it and never sent it, sends it, once. A sandbox that forgives nothing
// counts every refund that reaches it.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { toBridgeError } from '../../main/bridge';
import type { Sandbox } from '../../main/sandbox';
import { PgJournal } from '../../main/store/postgres/journal';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { postgresStore, type TeamStore } from '../support/service-stores';
import { approvedOrder, SHOP, shopClient, startShopSandbox } from '../support/shop';

const withPostgres = postgresForTests('the lost commit test');
const CONTROL_KEY = 'C0AA0000-1111-2222-3333-444455556666';

/**
 * A pool whose next COMMIT reaches the server and is carried out there, while its answer never
 * comes back: the socket is cut right after, as a network drop would, and pg says what it
 * says when a connection ends under a query.
 */
function poolLosingNextCommitAnswer(url: string): { pool: pg.Pool; arm: () => void } {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let armed = false;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (text: string) => Promise<unknown>;
    (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
      if (!armed || args[0] !== 'COMMIT') return (query as (...a: unknown[]) => unknown)(...args);
      armed = false;
      return query('COMMIT').then(() => {
        (
          client as unknown as { connection: { stream: { destroy(): void } } }
        ).connection.stream.destroy();
        throw new Error('Connection terminated unexpectedly');
      });
    };
  });
  return { pool, arm: () => (armed = true) };
}

describe.skipIf(!withPostgres)(
  'a committed write-ahead whose answer was lost (real PostgreSQL)',
  () => {
    let sandbox: Sandbox;
    let cluster: PgCluster;
    let store: TeamStore;

    beforeAll(async () => {
      sandbox = await startShopSandbox(CONTROL_KEY, { forgiveNothing: true });
      cluster = await startCluster();
      store = await postgresStore(cluster, 'lost_commit', {
        baseUrl: sandbox.baseUrl,
        controlKey: CONTROL_KEY,
      });
    });
    afterAll(async () => {
      await store?.close();
      await sandbox?.close();
      await cluster?.stop();
    });

    const reversals = (orderId: string) =>
      sandbox
        .orders(SHOP.endpointId)
        .filter((o) => o.parentOrderId === orderId && o.kind === 'reversal');

    it('tells the clerk nothing was sent; the second press resumes that entry and sends it once', async () => {
      const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
      const { pool, arm } = poolLosingNextCommitAnswer(store.team.team.urlOf('ann'));
      const desk = await store.desk({
        person: 'ann',
        desk: 'Front-7',
        wrap: () =>
          new PgJournal(pool, {
            desk: 'Front-7',
            where: `PostgreSQL at ${cluster.host}:${cluster.port}`,
            names: { login: 'ann', database: 'lost_commit' },
          }),
      });
      const refund = (clientOrderId: string) =>
        desk.orders.refund({
          profileId: store.profileId,
          orderid: saleId,
          clientOrderId,
          reason: 'Damaged',
        });
      const { clientOrderId } = desk.orders.openAction();

      arm();
      const lost = await refund(clientOrderId).catch((error: unknown) => error);
      expect(toBridgeError(lost)).toMatchObject({ code: 'STORE', delivery: 'nothing-sent' });
      expect(toBridgeError(lost).message).toMatch(
        /^Paydesk cannot reach the team journal's database/,
      );
      expect(reversals(saleId)).toHaveLength(0);
      // The server did write it: the entry is there, waiting, leased by this desk's process.
      expect(await desk.port.get(clientOrderId)).toMatchObject({
        state: 'sending',
        operator: 'ann',
      });

      const second = await refund(clientOrderId);
      expect(second).toMatchObject({ replayed: false });
      expect(await desk.orders.settled(clientOrderId)).toMatchObject({
        state: 'final',
        status: 'approved',
      });
      expect(reversals(saleId)).toHaveLength(1);

      // A third press only reports it.
      expect(await refund(clientOrderId)).toMatchObject({ replayed: true });
      expect(reversals(saleId)).toHaveLength(1);
      await pool.end();
    }, 60_000);
  },
);
