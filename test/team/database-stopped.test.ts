// The team's database away, at start or in the middle of work: every journal call says so with a
// typed StoreError and a sentence for the clerk (never a raw pg error, never a crash), what was
// written before stays written, nothing half-written appears, and the desk carries on once the
// server is back.

import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { StoreError } from '../../main/store/errors';
import type { NewJournalEntry } from '../../main/store/journal/port';
import { PgJournal } from '../../main/store/postgres/journal';
import { orderLockHolder, withOrderLock } from '../../main/store/postgres/order-lock';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { rejection } from '../support/team';

const withPostgres = postgresForTests('the team database fault tests');

const PROFILE = 'p-faults';

function refundOf(orderId: string): NewJournalEntry {
  return {
    clientOrderId: `pd-${randomUUID()}`,
    profileId: PROFILE,
    operator: 'ann',
    operation: 'return',
    targetOrderId: orderId,
    amountMinor: 500n,
    currency: 'EUR',
    fields: { amount: '5.00' },
  };
}

const UNREACHABLE_SENTENCE =
  /^Paydesk cannot reach the team journal's database \(PostgreSQL at 127\.0\.0\.1:\d+: .+\)\. Nothing that moves money is sent until it is back, because every such request is written to the journal first; looking orders up still works\./;

describe.skipIf(!withPostgres)('the team database stopped (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let ann: PgJournal;
  const where = () => `PostgreSQL at ${cluster.host}:${cluster.port}`;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'faults');
    await team.addProfile(PROFILE);
    ann = team.desk('ann', 'Front-1', { claimWaitMs: 10_000 });
  });
  afterAll(async () => {
    await cluster?.resume();
    await team?.close();
    await cluster?.stop();
  });

  it('unreachable at start, or the login refused: typed, plain, and nothing else breaks', async () => {
    const nowhere = new pg.Pool({
      connectionString: cluster
        .url('ann', 'whatever', 'faults')
        .replace(`:${cluster.port}/`, ':1/'),
      connectionTimeoutMillis: 2_000,
    });
    const away = new PgJournal(nowhere, { desk: 'Front-1', where: 'PostgreSQL at 127.0.0.1:1' });
    const error = await rejection(away.inFlight());
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'UNREACHABLE', retryable: true });
    expect(error.message).toMatch(UNREACHABLE_SENTENCE);
    await nowhere.end();

    const wrongPassword = new pg.Pool({
      connectionString: cluster.url('ann', 'not-her-password', 'faults'),
    });
    const refused = await rejection(
      new PgJournal(wrongPassword, { desk: 'Front-1', where: where() }).inFlight(),
    );
    expect(refused).toMatchObject({ code: 'NOT_ALLOWED', retryable: false });
    expect(refused.message).toContain('password authentication failed for user "ann"');
    await wrongPassword.end();
  });

  it('stopped mid-batch: the refund under way gets a typed error, the ones before stay, none is half-written, and work resumes', async () => {
    const batch = Array.from({ length: 6 }, (_, i) => ({
      orderId: `batch-${i}`,
      entry: refundOf(`batch-${i}`),
    }));
    const results: string[] = [];
    let stoppedBy: Error | undefined;
    for (const [i, item] of batch.entries()) {
      // The DBA stops the server while the fourth refund is being decided.
      if (i === 3) {
        const holder = await team.team.connect('bob');
        let release: () => void = () => undefined;
        const held = withOrderLock(
          holder,
          { profileId: PROFILE, orderId: item.orderId },
          { desk: 'Back-2', action: 'refunding' },
          () => new Promise<void>((resolve) => (release = resolve)),
        ).catch(() => undefined);
        const probe = await team.team.owner();
        for (
          let n = 0;
          n < 100 &&
          (await orderLockHolder(probe, { profileId: PROFILE, orderId: item.orderId }))?.login !==
            'bob';
          n++
        )
          await new Promise((resolve) => setTimeout(resolve, 20));
        const waiting = ann
          .claim(
            {
              profileId: PROFILE,
              orderId: item.orderId,
              clientOrderId: item.entry.clientOrderId,
              action: 'refunding',
            },
            () => ({ entry: item.entry, decided: null }),
          )
          .then(
            () => 'wrote' as const,
            (error: Error) => error,
          );
        // ann's claim waits for bob's lock (the server's own view of who waits).
        for (let n = 0; n < 100; n++) {
          const { rows } = await probe.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a USING (pid)
              WHERE NOT l.granted AND a.usename = 'ann'`,
          );
          if (rows[0]?.n !== '0') break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await cluster.halt();
        release();
        await held;
        const outcome = await waiting;
        if (outcome === 'wrote') throw new Error('the claim went through a stopped server');
        stoppedBy = outcome;
        results.push(`${i}: ${outcome.name} ${(outcome as StoreError).code}`);
        break;
      }
      await ann.claim(
        {
          profileId: PROFILE,
          orderId: item.orderId,
          clientOrderId: item.entry.clientOrderId,
          action: 'refunding',
        },
        () => ({ entry: item.entry, decided: null }),
      );
      results.push(`${i}: written`);
    }
    expect(results).toEqual([
      '0: written',
      '1: written',
      '2: written',
      '3: StoreError UNREACHABLE',
    ]);
    console.info(`the clerk reads: ${stoppedBy?.message ?? ''}`);
    expect(stoppedBy).toMatchObject({ retryable: true });
    expect(stoppedBy?.message).toMatch(UNREACHABLE_SENTENCE);

    // While it is down, every call says the same, at once.
    for (const call of [() => ann.inFlight(), () => ann.get(batch[0]?.entry.clientOrderId ?? '')]) {
      const down = await rejection(call());
      expect(down).toMatchObject({ code: 'UNREACHABLE' });
      expect(down.message).toMatch(UNREACHABLE_SENTENCE);
    }

    await cluster.resume();
    const pending = await ann.inFlight(PROFILE);
    expect(pending.map((e) => e.targetOrderId)).toEqual(['batch-0', 'batch-1', 'batch-2']);
    // The rest of the batch goes on with the same desk, once the server is back.
    for (const item of batch.slice(3)) {
      await ann.claim(
        {
          profileId: PROFILE,
          orderId: item.orderId,
          clientOrderId: item.entry.clientOrderId,
          action: 'refunding',
        },
        () => ({ entry: item.entry, decided: null }),
      );
    }
    expect((await ann.inFlight(PROFILE)).map((e) => e.targetOrderId)).toEqual(
      batch.map((b) => b.orderId),
    );
  });
});
