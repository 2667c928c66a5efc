// What only a team's journal has to get right, on a real PostgreSQL with each person's own login:
// who wrote what cannot be forged, two desks never decide on one order at once, a support login
// cannot write, and a desk killed mid-refund leaves an entry another desk settles.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { StoreError } from '../../main/store/errors';
import type { JournalEntry, NewJournalEntry } from '../../main/store/journal/port';
import { orderLockHolder, withOrderLock } from '../../main/store/postgres/order-lock';
import type { PgJournal } from '../../main/store/postgres/journal';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { rejection } from '../support/team';

const withPostgres = postgresForTests('the team journal tests');

const PROFILE = 'p-team';

function refundOf(orderId: string, extra: Partial<NewJournalEntry> = {}): NewJournalEntry {
  return {
    clientOrderId: `pd-${randomUUID()}`,
    profileId: PROFILE,
    operator: 'ann',
    operation: 'return',
    targetOrderId: orderId,
    amountMinor: 500n,
    currency: 'EUR',
    fields: { amount: '5.00' },
    ...extra,
  };
}

/** A claim on the order whose decision writes a refund under the claim's own action id. */
function claimRefund<T>(
  desk: PgJournal,
  orderId: string,
  decide: (entries: readonly JournalEntry[]) => T,
) {
  const clientOrderId = `pd-${randomUUID()}`;
  return desk.claim(
    { profileId: PROFILE, orderId, clientOrderId, action: 'refunding' },
    (entries) => ({
      entry: refundOf(orderId, { clientOrderId }),
      decided: decide(entries),
    }),
  );
}

/** A desk process (fixtures/desk.ts) and the lines it has said so far. */
function deskProcess(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'desk.ts'), ...args],
    { stdio: 'pipe' },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return {
    /** Resolves with the line starting with `prefix`, or fails after 20 s. */
    async said(prefix: string): Promise<string> {
      for (let waited = 0; waited < 20_000; waited += 50) {
        const line = out.split('\n').find((l) => l.startsWith(prefix));
        if (line) return line;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the desk never said "${prefix}": ${out} ${err.slice(-2000)}`);
    },
    async kill() {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

describe.skipIf(!withPostgres)('team journal (real PostgreSQL, one login per person)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let ann: PgJournal;
  let bob: PgJournal;
  let sam: PgJournal;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'team_journal');
    await team.addProfile(PROFILE);
    ann = team.desk('ann', 'Front-1');
    bob = team.desk('bob', 'Back-2', { claimWaitMs: 5_000 });
    sam = team.desk('sam', 'Help-3');
  });
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
  });

  it('names the login as operator whatever the desk says, with its desk; each change is kept as an answer', async () => {
    const entry = await ann.begin(refundOf('9001', { operator: 'mallory' }));
    expect(entry.operator).toBe('ann');
    await ann.markUnknown(entry.clientOrderId, { code: 'TIMEOUT', message: 'no answer' });
    await bob.acknowledge(entry.clientOrderId, 'g-9001');
    await bob.acknowledge(entry.clientOrderId, 'g-9001'); // a repeat: nothing new
    await bob.finish(entry.clientOrderId, { status: 'approved' });
    const owner = await team.team.owner();
    const journalRow = await owner.query<{ desk: string; operator: string }>(
      'SELECT desk, operator FROM paydesk.journal WHERE id = $1',
      [entry.id],
    );
    expect(journalRow.rows).toEqual([{ desk: 'Front-1', operator: 'ann' }]);
    const answers = await owner.query(
      `SELECT kind, state, status, fields, error_code, desk, recorded_by
         FROM paydesk.journal_answers WHERE journal_id = $1 ORDER BY id`,
      [entry.id],
    );
    expect(answers.rows).toEqual([
      {
        kind: 'error',
        state: 'unknown',
        status: null,
        fields: {},
        error_code: 'TIMEOUT',
        desk: 'Front-1',
        recorded_by: 'ann',
      },
      {
        kind: 'answer',
        state: 'acknowledged',
        status: null,
        fields: { orderid: 'g-9001' },
        error_code: null,
        desk: 'Back-2',
        recorded_by: 'bob',
      },
      {
        kind: 'answer',
        state: 'final',
        status: 'approved',
        fields: { status: 'approved' },
        error_code: null,
        desk: 'Back-2',
        recorded_by: 'bob',
      },
    ]);
  });

  it('records who settled by hand as the login, whatever the desk says', async () => {
    const entry = await ann.begin(refundOf('9002'));
    const settled = await bob.settleByHand(entry.clientOrderId, {
      outcome: 'not-received',
      reason: 'the gateway has no record after a week',
      by: 'ann',
    });
    expect(settled).toMatchObject({
      state: 'refused',
      settledBy: 'bob',
      errorMessage:
        'Settled by hand as not received by bob: the gateway has no record after a week',
    });
  });

  it('two desks refunding one order at once: one writes, the other sees its refund pending', async () => {
    const rounds = 12;
    let pendingSeen = 0;
    for (let round = 0; round < rounds; round++) {
      const orderId = `both-${round}`;
      const attempt = (desk: PgJournal) =>
        claimRefund(desk, orderId, (entries) => {
          // The rule the services apply: one refund of this order at a time.
          if (entries.some((e) => e.state !== 'final' && e.state !== 'refused'))
            throw new Error(`A refund of order ${orderId} is pending.`);
          return null;
        }).then(
          () => 'wrote',
          (error: Error) => error,
        );
      // ann gives up at once when bob holds the order; bob waits for ann.
      const results = await Promise.all([attempt(ann), attempt(bob)]);
      const wrote = results.filter((r) => r === 'wrote');
      expect(wrote, `round ${round}: ${results.map(String).join(' / ')}`).toHaveLength(1);
      for (const r of results) {
        if (r === 'wrote') continue;
        // Refused by the rules (bob waited for ann), or at once as busy: naming bob, or without a
        // name when bob finished between ann's try and her look at who held the order.
        expect((r as Error).message).toMatch(
          /^(bob \(desk Back-2\) is refunding order both-\d+ right now|Another desk was working on order both-\d+ just now|A refund of order both-\d+ is pending)/,
        );
        if (!(r instanceof StoreError)) pendingSeen++;
      }
      expect(await ann.forTarget(orderId)).toHaveLength(1);
    }
    console.info(
      `two desks on one order: ${rounds} rounds, one entry each; the second desk saw the first's refund pending ${pendingSeen} times (the rest: refused at once as busy)`,
    );
  });

  it("a desk finding the order held is told who holds it, in the database's words", async () => {
    const orderId = 'held-1';
    const holder = await team.team.connect('bob');
    let release: () => void = () => undefined;
    const holding = withOrderLock(
      holder,
      { profileId: PROFILE, orderId },
      { desk: 'Back-2', action: 'refunding' },
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    try {
      for (
        let i = 0;
        i < 100 && !(await orderLockHolder(holder, { profileId: PROFILE, orderId }));
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 20));
      const busy = await rejection(claimRefund(ann, orderId, () => null));
      expect(busy).toBeInstanceOf(StoreError);
      expect(busy).toMatchObject({ code: 'BUSY', retryable: true });
      expect(busy.message).toBe(
        'bob (desk Back-2) is refunding order held-1 right now; try again when they are done.',
      );
    } finally {
      release();
      await holding;
    }
    expect(await ann.forTarget(orderId)).toEqual([]);
  });

  it('a support login cannot write a refund: the database refuses, plainly, and nothing is written', async () => {
    const orderId = 'support-1';
    for (const attempt of [
      () => claimRefund(sam, orderId, () => null),
      () => sam.begin(refundOf(orderId)),
    ]) {
      const refused = await rejection(attempt());
      expect(refused).toBeInstanceOf(StoreError);
      expect(refused).toMatchObject({ code: 'NOT_ALLOWED', retryable: false });
      expect(refused.message).toMatch(
        /^Your login sam may not write the team journal on PostgreSQL at \S+ \(permission denied for table journal\); nothing was changed\. Only paydesk_finance moves money: ask your database administrator to add it to paydesk_finance if your work needs it\.$/,
      );
    }
    // The courtesy before the gateway is asked anything: the person's own groups, plainly.
    const early = await rejection(sam.requireWritable('send a refund'));
    expect(early).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(early.message).toBe(
      'Your team login sam is in paydesk_support, so it cannot send a refund: only paydesk_finance moves money. Nothing was sent or changed. Ask your database administrator if you should be in paydesk_finance.',
    );
    const written = await ann.begin(refundOf(orderId));
    const settle = await rejection(sam.finish(written.clientOrderId, { status: 'approved' }));
    expect(settle).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(await ann.forTarget(orderId)).toEqual([{ ...written }]);
    // Reading is what support does, and may.
    expect((await sam.get(written.clientOrderId))?.state).toBe('sending');
  });

  it('a desk killed mid-refund leaves its entry pending, and another desk settles it', async () => {
    const orderId = 'killed-1';
    const clientOrderId = `pd-${randomUUID()}`;
    const desk = deskProcess([
      team.team.urlOf('ann'),
      'Front-1',
      PROFILE,
      orderId,
      clientOrderId,
      'after-entry',
    ]);
    await desk.said('entry ');
    expect(await desk.kill()).toBe('SIGKILL');

    // Another desk starting up finds it among what must be reconciled: written by ann at Front-1,
    // its lease naming the dead process.
    const pending = (await bob.inFlight(PROFILE)).find((e) => e.clientOrderId === clientOrderId);
    expect(pending).toMatchObject({ state: 'sending', operator: 'ann', targetOrderId: orderId });
    expect(pending?.leaseOwner).toMatch(/^Front-1:\d+$/);
    // Its order is free: the dead desk holds nothing.
    const probe = await team.team.connect('bob');
    expect(await orderLockHolder(probe, { profileId: PROFILE, orderId })).toBeNull();

    // The gateway's status says it went through: bob records it.
    await bob.markUnknown(clientOrderId, {
      code: 'DESK_GONE',
      message: 'the desk that sent it stopped',
    });
    const settled = await bob.finish(clientOrderId, { status: 'approved', orderId: 'g-killed-1' });
    expect(settled).toMatchObject({
      state: 'final',
      status: 'approved',
      orderId: 'g-killed-1',
      operator: 'ann',
      leaseOwner: null,
    });
    const owner = await team.team.owner();
    const answers = await owner.query<{ recorded_by: string; desk: string; state: string }>(
      `SELECT a.recorded_by, a.desk, a.state FROM paydesk.journal_answers a
         JOIN paydesk.journal j ON j.id = a.journal_id WHERE j.client_orderid = $1 ORDER BY a.id`,
      [clientOrderId],
    );
    expect(answers.rows).toEqual([
      { recorded_by: 'bob', desk: 'Back-2', state: 'unknown' },
      { recorded_by: 'bob', desk: 'Back-2', state: 'final' },
    ]);
  });

  it('a desk killed while deciding frees the order and leaves nothing; the next desk goes ahead', async () => {
    const orderId = 'killed-2';
    const clientOrderId = `pd-${randomUUID()}`;
    const desk = deskProcess([
      team.team.urlOf('ann'),
      'Front-1',
      PROFILE,
      orderId,
      clientOrderId,
      'while-deciding',
    ]);
    await desk.said('deciding');
    const probe = await team.team.connect('bob');
    expect(await orderLockHolder(probe, { profileId: PROFILE, orderId })).toMatchObject({
      login: 'ann',
      desk: 'Front-1',
      action: 'refunding',
    });
    await desk.kill();
    // bob waits (up to 5 s) for the server to see the dead connection and free the order.
    const next = await claimRefund(bob, orderId, (entries) => entries.length);
    expect(next.claimed).toBeUndefined();
    expect(next.claimed ? -1 : next.decided).toBe(0);
    expect(await bob.get(clientOrderId)).toBeUndefined();
    expect((await bob.forTarget(orderId)).map((e) => e.operator)).toEqual(['bob']);
  });
});
