// A desk moving from its SQLite journal to its team's uploads it once, on a real PostgreSQL: the
// settled entries arrive as they ended, marked with the desk, their operator the uploader's login
// (the database's word) and the desk's operator kept as "recorded on the desk as"; a second run
// or a run after a crash skips what is there; unsettled entries and profiles the team does not
// share stop it before anything is written; nobody can forge an operator through it.

import { randomUUID } from 'node:crypto';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ServiceError } from '../../main/services/errors';
import { Journal } from '../../main/store/sqlite/journal';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { createTeamDatabase, refusal, type TeamDb, rejection } from '../support/team';
import { startDesk, type TestDesk } from './support/team-desk';

const withPostgres = postgresForTests('the journal upload tests');

const SHOP = {
  name: 'Shop EUR',
  environment: 'production' as const,
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '1234',
  login: 'shop',
};

interface UploadedRow {
  client_orderid: string;
  profile_id: string;
  desk: string;
  operator: string;
  recorded_operator: string;
  recorded_settled_by: string | null;
  settled_by: string | null;
  state: string;
  status: string | null;
  orderid: string | null;
  amount_minor: string | null;
  error_code: string | null;
  created_at: Date;
  final_at: Date | null;
  uploaded_at: Date | null;
  summary: Record<string, string>;
  card_last_four: string | null;
}

/** Writes a settled history on the desk's own journal: what a single desk leaves behind. */
function localHistory(desk: TestDesk, profileId: string, count: number) {
  const journal = new Journal(desk.app.db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const clientOrderId = `pd-${randomUUID()}`;
    journal.begin({
      clientOrderId,
      profileId,
      operator: 'clerk-on-desk',
      operation: 'RETURN',
      action: 'refund',
      targetOrderId: `90${i}`,
      // Beyond a double's exact range: the upload must not pass through a float.
      amountMinor: 9_007_199_254_740_993n + BigInt(i),
      currency: 'EUR',
      reason: 'Damaged',
      // Every other entry knows the card it refunded: the upload keeps its last four.
      ...(i % 2 === 0 ? { cardLastFour: '1111' } : {}),
      fields: { amount: '1.00' },
    });
    if (i % 3 === 1) journal.refuse(clientOrderId, { code: 'DECLINED', message: 'refused' });
    else if (i % 3 === 2) {
      journal.markUnknown(clientOrderId, { code: 'TIMEOUT', message: 'no answer' });
      journal.settleByHand(clientOrderId, {
        outcome: 'approved',
        reason: 'seen in the back office',
        by: 'clerk-on-desk',
      });
    } else journal.finish(clientOrderId, { status: 'approved', orderId: `g-${i}` });
    ids.push(clientOrderId);
  }
  return ids;
}

describe.skipIf(!withPostgres)("uploading a desk's journal (real PostgreSQL)", () => {
  let cluster: PgCluster;
  let team: TeamDb;
  let owner: pg.Client;
  let admin: TestDesk;
  let sharedId: string;

  const rowsOf = async (ids: string[]) =>
    (
      await owner.query<UploadedRow>(
        'SELECT * FROM paydesk.journal WHERE client_orderid = ANY($1) ORDER BY id',
        [ids],
      )
    ).rows;

  /** A desk of `person` with a local shop profile and `count` settled entries, not on the team yet. */
  async function deskWithHistory(person: 'ann' | 'bob' | 'sam', name: string, count: number) {
    const desk = await startDesk(team, person, name);
    const local = await desk.app.profiles.create({ ...SHOP, controlKey: 'LOCAL-CONTROL' });
    const ids = localHistory(desk, local.id, count);
    return { desk, local, ids };
  }

  beforeAll(async () => {
    cluster = await startCluster();
    team = await createTeamDatabase(cluster, 'journal_upload');
    owner = await team.owner();
    admin = await startDesk(team, 'ada', 'Admin-1');
    await admin.join();
    sharedId = (await admin.app.profiles.create({ ...SHOP, controlKey: 'TEAM-CONTROL' })).id;
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
    await team?.close();
    await cluster?.stop();
  });

  it('uploads the settled entries as they ended, marked with the desk, the uploader as operator; a second run skips them all', async () => {
    const { desk, local, ids } = await deskWithHistory('ann', 'Front-1', 6);
    try {
      // A training entry on the built-in Sandbox stays on the desk.
      const sandbox = (await desk.app.profiles.list()).find((p) => p.embedded)!;
      localHistory(desk, sandbox.id, 1);
      await desk.join();
      const plan = await desk.app.team.upload.plan();
      expect(plan).toMatchObject({
        entries: 7,
        sandbox: 1,
        unsettled: [],
        profiles: [{ localId: local.id, sharedId, how: 'same-gateway', entries: 6 }],
        lastUpload: null,
      });

      const first = await desk.app.team.upload.uploadLocalJournal();
      expect(first).toMatchObject({
        uploaded: 6,
        alreadyThere: 0,
        sandbox: 1,
        clashes: [],
        firstUploadAt: null,
      });
      const local6 = new Journal(desk.app.db);
      const rows = await rowsOf(ids);
      expect(rows).toHaveLength(6);
      rows.forEach((row, i) => {
        const before = local6.get(ids[i]!)!;
        expect(row).toMatchObject({
          profile_id: sharedId,
          desk: 'Front-1',
          operator: 'ann',
          recorded_operator: 'clerk-on-desk',
          state: before.state,
          status: before.status,
          orderid: before.orderId,
          error_code: before.errorCode,
          amount_minor: before.amountMinor!.toString(),
          card_last_four: before.cardLastFour,
        });
        expect(row.created_at.toISOString()).toBe(before.createdAt);
        expect(row.final_at?.toISOString()).toBe(before.finalAt);
        expect(row.uploaded_at).not.toBeNull();
      });
      // Settled by hand on the desk: the login that uploaded vouches, the desk's settler is kept.
      expect(rows[2]).toMatchObject({
        state: 'final',
        status: 'approved',
        settled_by: 'ann',
        recorded_settled_by: 'clerk-on-desk',
      });
      expect(rows[0]!.amount_minor).toBe('9007199254740993');
      expect(rows.map((r) => r.card_last_four)).toEqual(['1111', null, '1111', null, '1111', null]);

      const again = await desk.app.team.upload.uploadLocalJournal();
      expect(again).toMatchObject({ uploaded: 0, alreadyThere: 6, firstUploadAt: first.at });
      expect(await rowsOf(ids)).toHaveLength(6);
      expect((await desk.app.team.upload.plan()).lastUpload).toMatchObject({
        login: 'ann',
        uploaded: 0,
        present: 6,
      });
      // Uploaded entries are closed like any other: nothing of them can be rewritten.
      const ann = await team.connect('ann');
      expect(
        (
          await refusal(
            ann.query(`UPDATE paydesk.journal SET status = 'declined' WHERE client_orderid = $1`, [
              ids[0],
            ]),
          )
        ).code,
      ).toBe('PD001');
    } finally {
      await desk.close();
    }
  });

  it('after a crash mid-upload, the next run uploads only the rest, and counts what was there', async () => {
    const { desk, ids } = await deskWithHistory('bob', 'Back-2', 5);
    try {
      await desk.join();
      const crash = await rejection(
        desk.app.team.upload.uploadLocalJournal({
          batchSize: 2,
          onBatch: () => {
            throw new Error('the desk died here');
          },
        }),
      );
      expect(crash.message).toBe('the desk died here');
      expect(await rowsOf(ids)).toHaveLength(2);
      expect((await desk.app.team.upload.plan()).lastUpload).toBeNull(); // not finished: not recorded

      const rerun = await desk.app.team.upload.uploadLocalJournal({ batchSize: 2 });
      expect(rerun).toMatchObject({ uploaded: 3, alreadyThere: 2, clashes: [] });
      expect((await rowsOf(ids)).map((r) => r.client_orderid)).toEqual(ids);
    } finally {
      await desk.close();
    }
  });

  it('refuses while the local journal has unsettled entries, naming them; nothing is uploaded', async () => {
    const { desk, local, ids } = await deskWithHistory('ann', 'Front-3', 2);
    try {
      const journal = new Journal(desk.app.db);
      const waiting = `pd-${randomUUID()}`;
      journal.begin({
        clientOrderId: waiting,
        profileId: local.id,
        operator: 'clerk-on-desk',
        operation: 'RETURN',
        targetOrderId: '777',
        amountMinor: 500n,
        currency: 'EUR',
        fields: { amount: '5.00' },
      });
      journal.markUnknown(waiting, { code: 'TIMEOUT', message: 'no answer' });
      await desk.join();
      const refused = await rejection(desk.app.team.upload.uploadLocalJournal());
      expect(refused).toBeInstanceOf(ServiceError);
      expect((refused as ServiceError).code).toBe('PENDING');
      expect(refused.message).toContain(
        `1 entry of this desk's journal is not settled yet: ${waiting} (RETURN, unknown,`,
      );
      expect(refused.message).toContain('They must settle first');
      expect(await rowsOf([...ids, waiting])).toHaveLength(0);
    } finally {
      await desk.close();
    }
  });

  it('refuses entries of a profile the team does not share, listing it, until the person says which shared profile they belong to', async () => {
    const { desk, ids } = await deskWithHistory('ann', 'Front-4', 1);
    try {
      const other = await desk.app.profiles.create({
        ...SHOP,
        name: 'Old USD',
        endpointId: '5555',
        controlKey: 'OLD-CONTROL',
      });
      const otherIds = localHistory(desk, other.id, 2);
      await desk.join();
      const refused = await rejection(desk.app.team.upload.uploadLocalJournal());
      expect((refused as ServiceError).code).toBe('INPUT');
      expect(refused.message).toBe(
        'The team shares no profile for "Old USD" (2 entries): no shared profile has the same base URL, endpoint id and merchant login. Ask an admin to add it as a shared profile, or choose which shared profile each one\'s entries belong to; nothing was uploaded.',
      );
      expect(await rowsOf([...ids, ...otherIds])).toHaveLength(0);

      const chosen = await desk.app.team.upload.uploadLocalJournal({
        profileMap: { [other.id]: sharedId },
      });
      expect(chosen).toMatchObject({ uploaded: 3, alreadyThere: 0 });
      expect((await rowsOf(otherIds)).map((r) => r.profile_id)).toEqual([sharedId, sharedId]);
    } finally {
      await desk.close();
    }
  });

  it('nobody forges an operator: the upload names the caller, a direct insert of an uploaded or settled entry is refused, support may not upload', async () => {
    const ann = await team.connect('ann');
    const sam = await team.connect('sam');
    const entry = {
      client_orderid: `pd-${randomUUID()}`,
      profile_id: sharedId,
      operator: 'bob',
      operation: 'RETURN',
      amount_minor: '100',
      currency: 'EUR',
      summary: {},
      state: 'final',
      status: 'approved',
      created_at: new Date().toISOString(),
      result: {},
    };
    // Ann uploads an entry "by bob": bob is only what the desk recorded; its operator is ann.
    const { rows } = await ann.query<{ outcome: string }>(
      'SELECT outcome FROM paydesk.upload_local_entries($1, $2::jsonb)',
      ['Front-9', JSON.stringify([{ ...entry, operator: 'bob' }])],
    );
    expect(rows).toEqual([{ outcome: 'uploaded' }]);
    expect(await rowsOf([entry.client_orderid])).toMatchObject([
      { operator: 'ann', recorded_operator: 'bob', desk: 'Front-9' },
    ]);

    const direct = (columns: Record<string, string>) => {
      const names = Object.keys(columns);
      return refusal(
        ann.query(
          `INSERT INTO paydesk.journal (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
          Object.values(columns),
        ),
      );
    };
    const base = {
      client_orderid: `pd-${randomUUID()}`,
      profile_id: sharedId,
      desk: 'Front-9',
      operation: 'RETURN',
    };
    // Claiming bob as the operator of a direct entry.
    expect((await direct({ ...base, operator: 'bob' })).code).toBe('42501');
    // Writing the upload's columns past the function.
    expect((await direct({ ...base, recorded_operator: 'bob' })).code).toBe('42501');
    expect((await direct({ ...base, uploaded_at: new Date().toISOString() })).code).toBe('42501');
    // A settled entry straight in, without the upload (no grant on its state: a new entry is
    // 'sending' by default).
    expect((await direct({ ...base, state: 'final', status: 'approved' })).code).toBe('42501');
    // An uploaded entry's operator and recorded operator never change.
    expect(
      (
        await refusal(
          ann.query(
            `UPDATE paydesk.journal SET recorded_operator = 'eve' WHERE client_orderid = $1`,
            [entry.client_orderid],
          ),
        )
      ).code,
    ).toBe('42501');
    // Support may not upload, through the function or the service.
    const bySam = await refusal(
      sam.query('SELECT * FROM paydesk.upload_local_entries($1, $2::jsonb)', [
        'Help-9',
        JSON.stringify([{ ...entry, client_orderid: `pd-${randomUUID()}` }]),
      ]),
    );
    expect(bySam.code).toBe('42501');
    const samDesk = await startDesk(team, 'sam', 'Help-9');
    try {
      await samDesk.join();
      const refused = await rejection(samDesk.app.team.upload.uploadLocalJournal());
      expect(refused.message).toMatch(
        /^Only a finance or admin login uploads a desk's journal; your login sam is in paydesk_support/,
      );
    } finally {
      await samDesk.close();
    }
    // An unsettled entry is not uploaded even through the function.
    const unsettled = await refusal(
      ann.query('SELECT * FROM paydesk.upload_local_entries($1, $2::jsonb)', [
        'Front-9',
        JSON.stringify([
          { ...entry, client_orderid: `pd-${randomUUID()}`, state: 'unknown', status: null },
        ]),
      ]),
    );
    expect(unsettled.code).toBe('PD001');
  });
});
