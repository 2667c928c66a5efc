// One desk at a time on one order, on a real PostgreSQL: two desks (two logins, two
// connections) reach for the same order at once; the second is told who holds it, or waits,
// and never both are inside at once. The write-ahead INSERT happens inside the lock.

import { randomUUID } from 'node:crypto';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  OrderBusyError,
  orderLockHolder,
  withOrderLock,
  type OrderRef,
} from '../../main/store/postgres/order-lock';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { createTeamDatabase, refusal, type TeamDb } from '../support/team';

const withPostgres = postgresForTests('the order lock tests');

const PROFILE = 'p-shop';

/** A promise and the function that settles it: the test decides when a holder finishes. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function writeAhead(client: pg.ClientBase, order: OrderRef, amountMinor: number) {
  return client.query(
    `INSERT INTO paydesk.journal (client_orderid, profile_id, desk, operation, target_orderid, amount_minor, currency)
     VALUES ($1, $2, 'desk', 'return', $3, $4, 'EUR')`,
    [`pd-${randomUUID()}`, order.profileId, order.orderId, amountMinor],
  );
}

async function pendingFor(client: pg.ClientBase, order: OrderRef): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM paydesk.journal WHERE profile_id = $1 AND target_orderid = $2 AND state = 'sending'`,
    [order.profileId, order.orderId],
  );
  return Number(rows[0]?.n);
}

describe.skipIf(!withPostgres)('the per-order lock (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamDb;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await createTeamDatabase(cluster, 'locks');
    const ada = await team.connect('ada');
    await ada.query(
      `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
       VALUES ($1, 'Shop', 'production', 'https://gate.example.com/paynet', '1234', 'shop')`,
      [PROFILE],
    );
  });

  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
  });

  it('tells the second desk who is working on the order, then lets it in once the first is done', async () => {
    const order = { profileId: PROFILE, orderId: `o-${randomUUID()}` };
    const [ann, bob] = await Promise.all([team.connect('ann'), team.connect('bob')]);
    const holding = gate();
    const release = gate();
    const first = withOrderLock(
      ann,
      order,
      { desk: 'Front-2', action: 'refunding' },
      async (tx) => {
        await writeAhead(tx, order, 1250);
        holding.open();
        await release.opened;
        return 'sent';
      },
    );
    await holding.opened;

    const busy = await withOrderLock(bob, order, { desk: 'Back-1', action: 'refunding' }, () =>
      Promise.resolve('should not run'),
    ).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(OrderBusyError);
    expect((busy as OrderBusyError).holder).toEqual({
      login: 'ann',
      desk: 'Front-2',
      action: 'refunding',
    });
    expect((busy as OrderBusyError).message).toBe(
      `ann (desk Front-2) is refunding order ${order.orderId} right now; try again when they are done.`,
    );
    // The first desk's entry is not visible before its commit, so the lock is what stops bob.
    expect(await pendingFor(bob, order)).toBe(0);

    release.open();
    expect(await first).toBe('sent');
    expect(await orderLockHolder(bob, order)).toBeNull();
    // Now bob gets in, and sees ann's pending refund before deciding anything.
    const seen = await withOrderLock(bob, order, { desk: 'Back-1', action: 'refunding' }, (tx) =>
      pendingFor(tx, order),
    );
    expect(seen).toBe(1);
    // The announcement lasted only for the transaction.
    const names = await ann.query<{ application_name: string }>('SHOW application_name');
    expect(names.rows[0]?.application_name).not.toContain('Paydesk|');
  });

  it('does not hold back another order, nor the same orderid under another profile', async () => {
    const orderId = `o-${randomUUID()}`;
    const [ann, bob, ann2] = await Promise.all([
      team.connect('ann'),
      team.connect('bob'),
      team.connect('ann'),
    ]);
    const release = gate();
    const holding = gate();
    const first = withOrderLock(
      ann,
      { profileId: PROFILE, orderId },
      { desk: 'A', action: 'refunding' },
      async () => {
        holding.open();
        await release.opened;
      },
    );
    await holding.opened;
    await expect(
      withOrderLock(
        bob,
        { profileId: PROFILE, orderId: `${orderId}-other` },
        { desk: 'B', action: 'capturing' },
        () => Promise.resolve('in'),
      ),
    ).resolves.toBe('in');
    await expect(
      withOrderLock(ann2, { profileId: 'p-other', orderId }, { desk: 'C', action: 'voiding' }, () =>
        Promise.resolve('in'),
      ),
    ).resolves.toBe('in');
    release.open();
    await first;
  });

  it('with waitMs, the second desk waits and proceeds after the first; never both inside at once', async () => {
    const order = { profileId: PROFILE, orderId: `o-${randomUUID()}` };
    const [ann, bob] = await Promise.all([team.connect('ann'), team.connect('bob')]);
    const events: string[] = [];
    const holding = gate();
    const release = gate();
    const first = withOrderLock(ann, order, { desk: 'A', action: 'refunding' }, async (tx) => {
      events.push('ann in');
      await writeAhead(tx, order, 500);
      holding.open();
      await release.opened;
      events.push('ann out');
    });
    await holding.opened;
    const second = withOrderLock(
      bob,
      order,
      { desk: 'B', action: 'refunding', waitMs: 10_000 },
      async (tx) => {
        events.push('bob in');
        const pending = await pendingFor(tx, order);
        events.push('bob out');
        return pending;
      },
    );
    // Bob is waiting on the server: pg_locks shows his ungranted request behind ann's lock.
    const owner = await team.owner();
    for (let i = 0; i < 100; i++) {
      const { rows } = await owner.query(
        `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND NOT l.granted AND a.usename = 'bob'`,
      );
      if (rows.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(events).toEqual(['ann in']);
    release.open();
    await first;
    expect(await second).toBe(1);
    expect(events).toEqual(['ann in', 'ann out', 'bob in', 'bob out']);
  });

  it('with waitMs, a holder that stays too long still gets named', async () => {
    const order = { profileId: PROFILE, orderId: `o-${randomUUID()}` };
    const [ann, bob] = await Promise.all([team.connect('ann'), team.connect('bob')]);
    const holding = gate();
    const release = gate();
    const first = withOrderLock(ann, order, { desk: 'Front-2', action: 'capturing' }, async () => {
      holding.open();
      await release.opened;
    });
    await holding.opened;
    const busy = await withOrderLock(
      bob,
      order,
      { desk: 'B', action: 'refunding', waitMs: 200 },
      () => Promise.resolve(),
    ).catch((error: unknown) => error);
    expect((busy as OrderBusyError).holder).toEqual({
      login: 'ann',
      desk: 'Front-2',
      action: 'capturing',
    });
    // Bob's connection is usable again at once.
    expect((await bob.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    release.open();
    await first;
  });

  it('a desk that dies holding the lock frees the order and leaves no entry (nothing was sent)', async () => {
    const order = { profileId: PROFILE, orderId: `o-${randomUUID()}` };
    const [ann, bob] = await Promise.all([team.connect('ann'), team.connect('bob')]);
    const owner = await team.owner();
    const holding = gate();
    const { rows } = await ann.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // The desk hangs mid-action (its work never returns) and its connection is cut, as when
    // its process is killed: the server rolls its transaction back and frees the lock.
    void withOrderLock(ann, order, { desk: 'A', action: 'refunding' }, async (tx) => {
      await writeAhead(tx, order, 700);
      holding.open();
      await new Promise(() => undefined);
    }).catch(() => undefined);
    await holding.opened;
    expect((await orderLockHolder(bob, order))?.login).toBe('ann');
    await owner.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    const seen = await withOrderLock(
      bob,
      order,
      { desk: 'B', action: 'refunding', waitMs: 5_000 },
      (tx) => pendingFor(tx, order),
    );
    expect(seen).toBe(0);
  });

  it('a support login may hold the lock but its write-ahead is refused and nothing stays', async () => {
    const order = { profileId: PROFILE, orderId: `o-${randomUUID()}` };
    const sam = await team.connect('sam');
    const refused = await refusal(
      withOrderLock(sam, order, { desk: 'Help-1', action: 'refunding' }, (tx) =>
        writeAhead(tx, order, 100),
      ),
    );
    expect(refused.code).toBe('42501');
    expect(await pendingFor(sam, order)).toBe(0);
    expect(await orderLockHolder(sam, order)).toBeNull();
  });
});
