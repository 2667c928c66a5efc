// What the database itself allows each role, on a real PostgreSQL: the screen is only a
// courtesy, so every refusal here comes from the server, to a login connecting as a desk would.

import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEAM_ERRORS } from '../../main/store/postgres/migrations';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { createTeamDatabase, refusal, type TeamDb } from '../support/team';

const withPostgres = postgresForTests('the team database tests');

const PROFILE = 'p-shop';
const FP = Array(32).fill('AB').join(':');

interface EntryRow {
  id: string;
  client_orderid: string;
  operator: string;
  amount_minor: string;
  state: string;
  orderid: string | null;
  status: string | null;
  final_at: Date | null;
  created_at: Date;
}

function insertRefund(client: pg.Client, extra: Record<string, string> = {}) {
  const columns = {
    client_orderid: `pd-${randomUUID()}`,
    profile_id: PROFILE,
    desk: 'Front-1',
    operation: 'return',
    target_orderid: '9001',
    target_client_orderid: 'shop-77',
    amount_minor: '1250',
    currency: 'EUR',
    reason: 'customer complaint',
    email: 'buyer@example.com',
    summary: '{"amount":"12.50"}',
    ...extra,
  };
  const names = Object.keys(columns);
  return client.query<EntryRow>(
    `INSERT INTO paydesk.journal (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    Object.values(columns),
  );
}

/**
 * A move as a desk makes it: the entry's change and its answer (what the entry became), in one
 * transaction as one login. Migration 3 refuses a change of state without its answer.
 */
async function move(client: pg.Client, id: string | undefined, set: string, kind = 'answer') {
  await client.query('BEGIN');
  try {
    await client.query(`UPDATE paydesk.journal SET ${set} WHERE id = $1`, [id]);
    await client.query(
      `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, error_code, desk)
       SELECT id, $2, state, status, error_code, 'Front-1' FROM paydesk.journal WHERE id = $1`,
      [id, kind],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

describe.skipIf(!withPostgres)('team database roles (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamDb;
  let ann: pg.Client;
  let bob: pg.Client;
  let sam: pg.Client;
  let ada: pg.Client;
  let owner: pg.Client;

  beforeAll(async () => {
    cluster = await startCluster();
    console.info(`PostgreSQL cluster up in ${cluster.startMs} ms`);
    team = await createTeamDatabase(cluster, 'roles');
    [ann, bob, sam, ada, owner] = await Promise.all([
      team.connect('ann'),
      team.connect('bob'),
      team.connect('sam'),
      team.connect('ada'),
      team.owner(),
    ]);
    await ada.query(
      `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login, key_fingerprint)
       VALUES ($1, 'Shop', 'production', 'https://gate.example.com/paynet', '1234', 'shop', $2)`,
      [PROFILE, FP],
    );
  });

  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
  });

  it('tells each person their login and group, and a login in no group can read nothing', async () => {
    for (const [client, login, role] of [
      [ann, 'ann', 'paydesk_finance'],
      [sam, 'sam', 'paydesk_support'],
      [ada, 'ada', 'paydesk_admin'],
    ] as const) {
      expect((await client.query('SELECT login, roles FROM paydesk.me')).rows).toEqual([
        { login, roles: [role] },
      ]);
    }
    await owner.query(`CREATE ROLE stranger LOGIN PASSWORD 'stranger-pw'`);
    const stranger = new pg.Client({
      connectionString: cluster.url('stranger', 'stranger-pw', team.database),
    });
    await stranger.connect();
    try {
      for (const table of ['me', 'profiles', 'journal', 'journal_answers']) {
        expect((await refusal(stranger.query(`SELECT * FROM paydesk.${table}`))).code, table).toBe(
          '42501',
        );
      }
    } finally {
      await stranger.end();
    }
  });

  describe('writing journal entries', () => {
    it('refuses a refund entry from a support login', async () => {
      const refused = await refusal(insertRefund(sam));
      expect(refused.code).toBe('42501');
      expect(refused.message).toMatch(/permission denied for table journal/);
      const admin = await refusal(insertRefund(ada));
      expect(admin.code).toBe('42501');
    });

    it("writes a finance login's entry as sending, with that login as operator and the server's clock", async () => {
      const { rows } = await insertRefund(ann);
      expect(rows[0]).toMatchObject({
        operator: 'ann',
        state: 'sending',
        amount_minor: '1250',
        orderid: null,
      });
      // Support reads what finance wrote.
      const seen = await sam.query(
        'SELECT operator, amount_minor FROM paydesk.journal WHERE id = $1',
        [rows[0]?.id],
      );
      expect(seen.rows).toEqual([{ operator: 'ann', amount_minor: '1250' }]);
    });

    it('refuses a forged operator, even after SET ROLE to the group', async () => {
      const forged = await refusal(insertRefund(ann, { operator: 'bob' }));
      expect(forged.code).toBe(TEAM_ERRORS.forged);
      expect(forged.message).toContain('the login that writes it (ann), not bob');

      // SET ROLE changes current_user to the group, but the operator stays the person.
      await ann.query('SET ROLE paydesk_finance');
      try {
        const { rows } = await insertRefund(ann);
        expect(rows[0]?.operator).toBe('ann');
        expect((await refusal(insertRefund(ann, { operator: 'paydesk_finance' }))).code).toBe(
          '42501',
        );
      } finally {
        await ann.query('RESET ROLE');
      }
    });

    it('refuses a new entry that claims an answer or a state other than sending', async () => {
      expect((await refusal(insertRefund(ann, { state: 'final' }))).code).toBe('42501');
      // Not even the schema's owner can write an entry that skipped its write-ahead.
      const owned = await refusal(
        owner.query(
          `INSERT INTO paydesk.journal (client_orderid, profile_id, desk, operation, state, status)
           VALUES ('pd-owner', $1, 'x', 'return', 'final', 'approved')`,
          [PROFILE],
        ),
      );
      expect(owned.code).toBe(TEAM_ERRORS.notForward);
      expect(owned.message).toContain('it starts as sending, not final');
    });
  });

  describe('entries only move forward', () => {
    it('refuses an UPDATE of what was sent, from finance and from the owner', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      expect(
        (
          await refusal(
            ann.query('UPDATE paydesk.journal SET amount_minor = 99 WHERE id = $1', [id]),
          )
        ).code,
      ).toBe('42501');
      for (const change of [
        'amount_minor = 99',
        "currency = 'USD'",
        "target_orderid = '1'",
        "operation = 'capture'",
        "operator = 'bob'",
        "created_at = now() - interval '1 day'",
      ]) {
        const refused = await refusal(
          owner.query(`UPDATE paydesk.journal SET ${change} WHERE id = $1`, [id]),
        );
        expect(refused.code, change).toBe(TEAM_ERRORS.rewrite);
        expect(refused.message).toContain('was sent as written');
      }
      const after = await sam.query<EntryRow>('SELECT * FROM paydesk.journal WHERE id = $1', [id]);
      expect(after.rows[0]).toMatchObject({ amount_minor: '1250', operator: 'ann' });
    });

    it('allows sending -> acknowledged -> final, by any finance login, and then closes the entry', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      await move(ann, id, `state = 'acknowledged', orderid = '5551'`);
      // Another desk settles it (a crashed desk's entry is anyone's to settle).
      await move(bob, id, `state = 'final', status = 'approved'`, 'status');
      const final = (await sam.query<EntryRow>('SELECT * FROM paydesk.journal WHERE id = $1', [id]))
        .rows[0];
      expect(final).toMatchObject({
        state: 'final',
        status: 'approved',
        orderid: '5551',
        operator: 'ann',
      });
      expect(final?.final_at).toBeInstanceOf(Date);

      for (const move of [
        "state = 'acknowledged'",
        "state = 'sending'",
        "status = 'declined'",
        "error_message = 'x'",
      ]) {
        const back = await refusal(
          ann.query(`UPDATE paydesk.journal SET ${move} WHERE id = $1`, [id]),
        );
        expect(back.code, move).toBe(TEAM_ERRORS.notForward);
        expect(back.message).toContain('is final and cannot change any more');
        expect(
          (await refusal(owner.query(`UPDATE paydesk.journal SET ${move} WHERE id = $1`, [id])))
            .code,
        ).toBe(TEAM_ERRORS.notForward);
      }
    });

    it('allows a lost answer to go unknown and then refused, but never back to sending', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      await move(ann, id, `state = 'unknown', error_message = 'timeout'`, 'error');
      expect(
        (
          await refusal(
            ann.query(`UPDATE paydesk.journal SET state = 'sending' WHERE id = $1`, [id]),
          )
        ).code,
      ).toBe(TEAM_ERRORS.notForward);
      await move(ann, id, `state = 'refused', error_code = '2'`, 'error');
      expect(
        (await refusal(ann.query(`UPDATE paydesk.journal SET state = 'final' WHERE id = $1`, [id])))
          .code,
      ).toBe(TEAM_ERRORS.notForward);
    });

    it('follows the journal state machine: an acknowledged entry is never unknown or refused by an answer', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      await move(ann, id, `state = 'acknowledged'`);
      for (const state of ['unknown', 'refused', 'sending']) {
        const moved = await refusal(
          ann.query(`UPDATE paydesk.journal SET state = $2 WHERE id = $1`, [id, state]),
        );
        expect(moved.code, state).toBe(TEAM_ERRORS.notForward);
        expect(moved.message).toContain(`is acknowledged and cannot become ${state}`);
      }
    });

    it('names the login that settled an entry by hand, and nobody else', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      const forged = await refusal(
        bob.query(
          `UPDATE paydesk.journal SET state = 'refused', settled_by = 'ann', settle_reason = 'x' WHERE id = $1`,
          [id],
        ),
      );
      expect(forged.code).toBe(TEAM_ERRORS.forged);
      await move(
        bob,
        id,
        `state = 'refused', error_code = 'SETTLED_BY_HAND', settled_by = 'bob',
           settle_reason = 'gateway has no record after a week'`,
        'by-hand',
      );
      const rewrite = await refusal(
        owner.query(`UPDATE paydesk.journal SET settle_reason = 'other' WHERE id = $1`, [id]),
      );
      expect(rewrite.code).toBe(TEAM_ERRORS.rewrite);
    });

    it("keeps the gateway's orderid once learned, and a final entry needs its status", async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      await move(ann, id, `state = 'acknowledged', orderid = '7001'`);
      expect(
        (
          await refusal(
            ann.query(`UPDATE paydesk.journal SET orderid = '7002' WHERE id = $1`, [id]),
          )
        ).code,
      ).toBe(TEAM_ERRORS.rewrite);
      expect(
        (await refusal(ann.query(`UPDATE paydesk.journal SET state = 'final' WHERE id = $1`, [id])))
          .code,
      ).toBe('23514');
    });

    it('refuses DELETE to every role and to the owner, and TRUNCATE too', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      for (const client of [ann, bob, sam, ada]) {
        expect(
          (await refusal(client.query('DELETE FROM paydesk.journal WHERE id = $1', [id]))).code,
        ).toBe('42501');
      }
      const owned = await refusal(owner.query('DELETE FROM paydesk.journal WHERE id = $1', [id]));
      expect(owned.code).toBe(TEAM_ERRORS.removal);
      expect((await refusal(owner.query('TRUNCATE paydesk.journal CASCADE'))).code).toBe(
        TEAM_ERRORS.removal,
      );
      expect((await sam.query('SELECT 1 FROM paydesk.journal WHERE id = $1', [id])).rowCount).toBe(
        1,
      );
    });
  });

  describe('answers', () => {
    it('records every answer in order, by the login that got it, and never changes or removes one', async () => {
      const { rows } = await insertRefund(ann);
      const id = rows[0]?.id;
      const answer = (client: pg.Client, kind: string, state: string, extra = '') =>
        client.query(
          `INSERT INTO paydesk.journal_answers (journal_id, kind, state, desk${extra ? ', recorded_by' : ''})
           VALUES ($1, $2, $3, 'Front-1'${extra ? `, '${extra}'` : ''}) RETURNING id`,
          [id, kind, state],
        );
      await move(ann, id, `state = 'unknown'`, 'error');
      // An answer that changes nothing says the state its open entry is in.
      await answer(bob, 'status', 'unknown');
      expect((await refusal(answer(ann, 'status', 'unknown', 'bob'))).code).toBe(
        TEAM_ERRORS.forged,
      );
      expect((await refusal(answer(sam, 'status', 'unknown'))).code).toBe('42501');
      const seen = await sam.query(
        'SELECT kind, state, recorded_by FROM paydesk.journal_answers WHERE journal_id = $1 ORDER BY id',
        [id],
      );
      expect(seen.rows).toEqual([
        { kind: 'error', state: 'unknown', recorded_by: 'ann' },
        { kind: 'status', state: 'unknown', recorded_by: 'bob' },
      ]);
      expect(
        (await refusal(owner.query(`UPDATE paydesk.journal_answers SET state = 'refused'`))).code,
      ).toBe(TEAM_ERRORS.rewrite);
      expect((await refusal(owner.query('DELETE FROM paydesk.journal_answers'))).code).toBe(
        TEAM_ERRORS.removal,
      );
      expect((await refusal(ann.query('DELETE FROM paydesk.journal_answers'))).code).toBe('42501');
    });
  });

  describe('shared profiles', () => {
    const newProfile = (client: pg.Client, id: string) =>
      client.query(
        `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
         VALUES ($1, $1, 'test', 'https://test.example.com/paynet', '42', 'merchant')`,
        [id],
      );

    it('lets support and finance read profiles but not change them', async () => {
      for (const client of [sam, ann]) {
        expect(
          (await client.query('SELECT name FROM paydesk.profiles WHERE id = $1', [PROFILE])).rows,
        ).toEqual([{ name: 'Shop' }]);
        expect((await refusal(newProfile(client, `p-${randomUUID()}`))).code).toBe('42501');
        expect(
          (
            await refusal(
              client.query(
                `UPDATE paydesk.profiles SET base_url = 'https://evil.example' WHERE id = $1`,
                [PROFILE],
              ),
            )
          ).code,
        ).toBe('42501');
        expect(
          (await refusal(client.query('DELETE FROM paydesk.profiles WHERE id = $1', [PROFILE])))
            .code,
        ).toBe('42501');
      }
    });

    it('lets an admin add, change and remove a profile, stamped with who did it', async () => {
      const id = `p-${randomUUID()}`;
      await newProfile(ada, id);
      await ada.query(
        `UPDATE paydesk.profiles SET endpoint_id = '43', updated_by = 'bob' WHERE id = $1`,
        [id],
      );
      const { rows } = await sam.query(
        'SELECT endpoint_id, updated_by FROM paydesk.profiles WHERE id = $1',
        [id],
      );
      expect(rows).toEqual([{ endpoint_id: '43', updated_by: 'ada' }]);
      expect((await ada.query('DELETE FROM paydesk.profiles WHERE id = $1', [id])).rowCount).toBe(
        1,
      );
      // A profile the journal refers to stays.
      expect(
        (await refusal(ada.query('DELETE FROM paydesk.profiles WHERE id = $1', [PROFILE]))).code,
      ).toBe('23503');
    });

    it('has no place for a key: the fingerprint column takes only a fingerprint', async () => {
      const columns = await sam.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'paydesk' AND table_name = 'profiles'`,
      );
      expect(
        columns.rows.map((c) => c.column_name).filter((c) => /key|secret|control|private/.test(c)),
      ).toEqual(['key_fingerprint']);
      const pem = '-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----';
      expect(
        (
          await refusal(
            ada.query('UPDATE paydesk.profiles SET key_fingerprint = $1 WHERE id = $2', [
              pem,
              PROFILE,
            ]),
          )
        ).code,
      ).toBe('23514');
    });
  });
});
