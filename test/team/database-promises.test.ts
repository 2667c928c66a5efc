// What the team database promises whoever connects, whatever client they use: the statements
// issue 25 ran as a finance login with psql, run here as each kind of login (support, finance,
// admin, a login in no Paydesk group) against a real PostgreSQL. Each is refused, or, where the
// desks' rules allow it, goes through only with its trace: an answer row naming the login.

import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { StoreError } from '../../main/store/errors';
import { TEAM_ERRORS } from '../../main/store/postgres/migrations';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { refusal, rejection } from '../support/team';

const withPostgres = postgresForTests('the team database promise tests');

const PROFILE = 'p-promises';

interface Row {
  id: string;
  client_orderid: string;
  state: string;
  status: string | null;
  error_code: string | null;
  settled_by: string | null;
  lease_owner: string | null;
  lease_holder: string | null;
}

describe.skipIf(!withPostgres)('what the team database promises (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let harness: TeamHarness;
  let ann: pg.Client;
  let sam: pg.Client;
  let ada: pg.Client;
  let stranger: pg.Client;
  let owner: pg.Client;
  /** Everyone who may not write the journal at all: support, admin, a login in no group. */
  let readers: [string, pg.Client][];

  beforeAll(async () => {
    cluster = await startCluster();
    harness = await teamHarness(cluster, 'promises');
    await harness.addProfile(PROFILE);
    [ann, sam, ada, owner] = await Promise.all([
      harness.team.connect('ann'),
      harness.team.connect('sam'),
      harness.team.connect('ada'),
      harness.team.owner(),
    ]);
    await owner.query(`CREATE ROLE stranger LOGIN PASSWORD 'stranger-pw'`);
    stranger = new pg.Client({
      connectionString: cluster.url('stranger', 'stranger-pw', harness.team.database),
    });
    await stranger.connect();
    readers = [
      ['support', sam],
      ['admin', ada],
      ['no group', stranger],
    ];
  });

  afterAll(async () => {
    await stranger?.end().catch(() => undefined);
    await harness?.close();
    await cluster?.stop();
  });

  /** Bob's refund, written by his desk; 'unknown' when its answer was lost. */
  async function bobsRefund(state: 'sending' | 'unknown' = 'unknown'): Promise<Row> {
    const desk = harness.desk('bob', 'Front-2');
    const entry = await desk.begin({
      clientOrderId: `pd-bob-${randomUUID()}`,
      profileId: PROFILE,
      operator: 'bob',
      operation: 'RETURN',
      targetOrderId: '9001',
      amountMinor: 1250n,
      currency: 'EUR',
      reason: 'customer complaint',
      fields: { amount: '12.50' },
      lease: { owner: 'front-2:4242:abcd', until: new Date(Date.now() + 120_000) },
    });
    if (state === 'unknown')
      await desk.markUnknown(entry.clientOrderId, { code: 'TIMEOUT', message: 'no answer' });
    return read(entry.clientOrderId);
  }

  async function read(clientOrderId: string): Promise<Row> {
    const { rows } = await owner.query<Row>(
      'SELECT * FROM paydesk.journal WHERE client_orderid = $1',
      [clientOrderId],
    );
    return rows[0] as Row;
  }

  async function answersOf(id: string) {
    const { rows } = await owner.query<{
      kind: string;
      state: string;
      status: string | null;
      error_code: string | null;
      recorded_by: string;
    }>(
      `SELECT kind, state, status, error_code, recorded_by FROM paydesk.journal_answers
        WHERE journal_id = $1 ORDER BY id`,
      [id],
    );
    return rows;
  }

  /** The statement, then (optionally) an answer saying what the entry became: one transaction. */
  async function inOneTransaction(client: pg.Client, statements: string[], values: unknown[]) {
    await client.query('BEGIN');
    try {
      for (const sql of statements) await client.query(sql, values);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  const answerAsItIs = (kind: string) =>
    `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, error_code, desk)
     SELECT id, '${kind}', state, status, error_code, 'psql' FROM paydesk.journal WHERE id = $1`;

  describe("closing another desk's refund still in flight as not received", () => {
    const notReceived = `UPDATE paydesk.journal SET state = 'refused', error_code = 'NOT_RECEIVED' WHERE id = $1`;

    it('is refused to support, admin and a login in no group', async () => {
      const entry = await bobsRefund();
      for (const [who, client] of readers) {
        expect((await refusal(client.query(notReceived, [entry.id]))).code, who).toBe('42501');
      }
      expect((await read(entry.client_orderid)).state).toBe('unknown');
    });

    it('is refused to a finance login as a bare UPDATE: no answer says who closed it', async () => {
      const entry = await bobsRefund();
      expect((await refusal(ann.query(notReceived, [entry.id]))).code).toBe(TEAM_ERRORS.tooEarly);
      await ageEntry(entry.id, '2 hours');
      const refused = await refusal(ann.query(notReceived, [entry.id]));
      expect(refused.code).toBe(TEAM_ERRORS.unanswered);
      expect(refused.message).toContain(
        `Journal entry ${entry.client_orderid} became refused without its answer`,
      );
      expect(await read(entry.client_orderid)).toMatchObject({ state: 'unknown' });
    });

    it('is refused before the quarantine even with an answer row, and traced after it', async () => {
      const entry = await bobsRefund();
      const early = await refusal(
        inOneTransaction(ann, [notReceived, answerAsItIs('status')], [entry.id]),
      );
      expect(early.code).toBe(TEAM_ERRORS.tooEarly);
      expect(early.message).toContain('can be closed as not received only after its quarantine');
      expect((await read(entry.client_orderid)).state).toBe('unknown');

      // An hour and more after the request may have left, the gateway still without a record.
      await ageEntry(entry.id, '61 minutes');
      await inOneTransaction(ann, [notReceived, answerAsItIs('status')], [entry.id]);
      expect(await read(entry.client_orderid)).toMatchObject({
        state: 'refused',
        error_code: 'NOT_RECEIVED',
      });
      expect((await answersOf(entry.id)).at(-1)).toEqual({
        kind: 'status',
        state: 'refused',
        status: null,
        error_code: 'NOT_RECEIVED',
        recorded_by: 'ann',
      });
    });

    it("is refused when called the gateway's refusal, which only the sending login learns", async () => {
      const entry = await bobsRefund('sending');
      const refused = await refusal(
        inOneTransaction(
          ann,
          [
            `UPDATE paydesk.journal SET state = 'refused', error_code = 'NOT_SENT' WHERE id = $1`,
            answerAsItIs('error'),
          ],
          [entry.id],
        ),
      );
      expect(refused.code).toBe('42501');
      expect(refused.message).toContain(
        `Only the login that sent journal entry ${entry.client_orderid} (bob)`,
      );
    });

    it('goes through by hand only with the login as settler and a reason, both kept', async () => {
      const entry = await bobsRefund();
      const byHand = (by: string, reason: string) =>
        inOneTransaction(
          ann,
          [
            `UPDATE paydesk.journal SET state = 'refused', error_code = 'SETTLED_BY_HAND',
               settled_by = '${by}', settle_reason = '${reason}' WHERE id = $1`,
            answerAsItIs('by-hand'),
          ],
          [entry.id],
        );
      expect((await refusal(byHand('bob', 'no record'))).code).toBe('42501');
      expect((await refusal(byHand('ann', '  '))).message).toContain('needs a reason');
      await byHand('ann', 'the operator confirmed it never arrived');
      expect(await read(entry.client_orderid)).toMatchObject({
        state: 'refused',
        settled_by: 'ann',
      });
      expect((await answersOf(entry.id)).at(-1)).toMatchObject({
        kind: 'by-hand',
        recorded_by: 'ann',
      });
    });
  });

  describe("calling another desk's refund approved", () => {
    const approved = `UPDATE paydesk.journal SET state = 'final', status = 'approved' WHERE id = $1`;

    it('is refused to everyone but finance, and to finance without its answer', async () => {
      const entry = await bobsRefund();
      for (const [who, client] of readers)
        expect((await refusal(client.query(approved, [entry.id]))).code, who).toBe('42501');
      expect((await refusal(ann.query(approved, [entry.id]))).code).toBe(TEAM_ERRORS.unanswered);
      // An answer of another login, or one that says something else, is no answer for it.
      const bobsAnswer = await refusal(
        inOneTransaction(
          ann,
          [
            approved,
            `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, desk, recorded_by)
             VALUES ($1, 'status', 'final', 'approved', 'psql', 'bob')`,
          ],
          [entry.id],
        ),
      );
      expect(bobsAnswer.code).toBe('42501');
      const declined = await refusal(
        inOneTransaction(
          ann,
          [
            approved,
            `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, desk)
             VALUES ($1, 'status', 'final', 'declined', 'psql')`,
          ],
          [entry.id],
        ),
      );
      expect(declined.code).toBe(TEAM_ERRORS.notForward);
      expect((await read(entry.client_orderid)).state).toBe('unknown');
    });

    it('goes through with the answer, which names the login that recorded it', async () => {
      const entry = await bobsRefund();
      await inOneTransaction(ann, [approved, answerAsItIs('status')], [entry.id]);
      expect(await read(entry.client_orderid)).toMatchObject({
        state: 'final',
        status: 'approved',
      });
      expect((await answersOf(entry.id)).at(-1)).toEqual({
        kind: 'status',
        state: 'final',
        status: 'approved',
        error_code: 'TIMEOUT',
        recorded_by: 'ann',
      });
    });
  });

  describe('an answer under a final entry', () => {
    it('is refused to everyone, the status it already has included', async () => {
      const entry = await bobsRefund();
      await harness.desk('bob', 'Front-2').finish(entry.client_orderid, { status: 'approved' });
      const answer = (client: pg.Client, status: string) =>
        client.query(
          `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, desk)
           VALUES ($1, 'status', 'final', $2, 'psql')`,
          [entry.id, status],
        );
      for (const [who, client] of readers)
        expect((await refusal(answer(client, 'declined'))).code, who).toBe('42501');
      for (const status of ['declined', 'approved']) {
        const refused = await refusal(answer(ann, status));
        expect(refused.code, status).toBe(TEAM_ERRORS.notForward);
        expect(refused.message).toBe(
          `Journal entry ${entry.client_orderid} is final (approved) and takes no more answers.`,
        );
      }
      expect((await answersOf(entry.id)).map((a) => a.status)).toEqual([null, 'approved']);
    });
  });

  describe("another desk's lease", () => {
    const takeLease = `UPDATE paydesk.journal SET lease_owner = 'ann-pc:1:ffff',
      lease_until = now() + interval '1 hour' WHERE id = $1`;

    it('is changed only by the login holding it, or by anyone once it ran out', async () => {
      const entry = await bobsRefund('sending');
      expect(entry).toMatchObject({ lease_owner: 'front-2:4242:abcd', lease_holder: 'bob' });
      for (const [who, client] of readers)
        expect((await refusal(client.query(takeLease, [entry.id]))).code, who).toBe('42501');
      const taken = await refusal(ann.query(takeLease, [entry.id]));
      expect(taken.code).toBe('42501');
      expect(taken.message).toContain(
        `Journal entry ${entry.client_orderid} is being sent by front-2:4242:abcd (login bob)`,
      );
      expect(
        (
          await refusal(
            ann.query('UPDATE paydesk.journal SET lease_owner = NULL WHERE id = $1', [entry.id]),
          )
        ).code,
      ).toBe('42501');
      expect(
        (
          await refusal(
            ann.query(`UPDATE paydesk.journal SET lease_holder = 'ann' WHERE id = $1`, [entry.id]),
          )
        ).code,
      ).toBe('42501');
      // Its holder renews it, then lets it run out; then another desk may take it over.
      await harness.desk('bob', 'Front-2').lease(entry.client_orderid, {
        owner: 'front-2:4242:abcd',
        until: new Date(Date.now() - 1000),
      });
      await ann.query(takeLease, [entry.id]);
      expect(await read(entry.client_orderid)).toMatchObject({
        lease_owner: 'ann-pc:1:ffff',
        lease_holder: 'ann',
      });
    });
  });

  describe('four eyes on two-step payouts', () => {
    /** A payout checked by `person` on `profile`, with the gateway's orderid: ready to pay. */
    async function checkedPayout(person: 'ann' | 'bob', profile: string, orderId: string) {
      const desk = harness.desk(person, 'Front-9');
      const check = await desk.begin({
        clientOrderId: `pd-check-${randomUUID()}`,
        profileId: profile,
        operator: person,
        operation: 'PAYOUT_V4_CHECK',
        amountMinor: 2510n,
        currency: 'EUR',
        fields: { amount: '25.10' },
      });
      await desk.finish(check.clientOrderId, { status: 'checked', orderId });
    }
    const pay = (person: 'ann' | 'bob', profile: string, orderId: string) =>
      harness.desk(person, 'Front-9').begin({
        clientOrderId: `pd-pay-${randomUUID()}`,
        profileId: profile,
        operator: person,
        operation: 'PAYOUT_V4_PAY',
        targetOrderId: orderId,
        amountMinor: 2510n,
        currency: 'EUR',
        fields: { orderid: orderId },
      });

    it('refuses the pay to the login that checked it, whatever client, and lets a colleague pay', async () => {
      const strict = `p-four-eyes-${randomUUID().slice(0, 8)}`;
      await harness.addProfile(strict);
      await ada.query('UPDATE paydesk.profiles SET payout_four_eyes = true WHERE id = $1', [
        strict,
      ]);
      await checkedPayout('ann', strict, 'po-1');
      const refused = await rejection(pay('ann', strict, 'po-1'));
      expect(refused).toBeInstanceOf(StoreError);
      expect(refused.message).toBe(
        `You (ann) checked this payout, and the profile "Shop ${strict}" wants payouts paid by someone other than who checked them. Ask another finance colleague to pay it.`,
      );
      // psql gets the same refusal.
      const direct = await refusal(
        ann.query(
          `INSERT INTO paydesk.journal (client_orderid, profile_id, desk, operation, target_orderid)
           VALUES ('pd-psql-pay', $1, 'psql', 'PAYOUT_V4_PAY', 'po-1')`,
          [strict],
        ),
      );
      expect(direct.code).toBe(TEAM_ERRORS.fourEyes);
      expect(await pay('bob', strict, 'po-1')).toMatchObject({ operator: 'bob' });
      // Only an admin sets the rule.
      expect(
        (
          await refusal(
            ann.query('UPDATE paydesk.profiles SET payout_four_eyes = false WHERE id = $1', [
              strict,
            ]),
          )
        ).code,
      ).toBe('42501');
    });

    it('lets the checker pay on a profile without the rule', async () => {
      await checkedPayout('ann', PROFILE, 'po-2');
      expect(await pay('ann', PROFILE, 'po-2')).toMatchObject({ operator: 'ann' });
    });
  });

  describe("the desks' own port", () => {
    it('refuses a not-received before the quarantine as a store that says when to ask again', async () => {
      const entry = await bobsRefund();
      const early = await rejection(
        harness
          .desk('ann', 'Front-1')
          .refuse(entry.client_orderid, { code: 'NOT_RECEIVED', message: 'no record' }),
      );
      expect(early).toBeInstanceOf(StoreError);
      expect(early).toMatchObject({ code: 'BUSY', retryable: true });
      expect(early.message).toMatch(
        /^The team journal keeps this entry pending: Journal entry pd-bob-\S+ may still be processed by the gateway: it can be closed as not received only after its quarantine, at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
      );
    });
  });

  /** Moves an entry's send time back, as only the schema's owner can (the triggers keep it). */
  async function ageEntry(id: string, by: string): Promise<void> {
    await owner.query('SET session_replication_role = replica');
    await owner.query(
      `UPDATE paydesk.journal SET sent_at = sent_at - $2::interval, created_at = created_at - $2::interval WHERE id = $1`,
      [id, by],
    );
    await owner.query('SET session_replication_role = DEFAULT');
  }
});
