// A batch of 1,000 rows (800 refunds, two per sale, and 200 captures of preauths) against a
// gateway that forgives nothing (repeats are new transactions, recorded ones show in `status`
// only after a while), with lost answers and 500s, while the process running it is killed
// (SIGKILL) mid-batch twice and started again. Afterwards: exactly one gateway transaction per
// row, every row final, every journal entry of the batch final and linked to it.

import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { BatchService } from '../../main/services/batch/batch';
import { openDatabase } from '../../main/store/sqlite/database';
import { Batches } from '../../main/store/sqlite/batches';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder, SHOP, shopClient } from '../support/shop';
import { CONTROL_KEY, createDesk, startUnforgivingSandbox, summary, unforgiving } from './support';
import { until } from '../support/wait';

const SALES = 400;
const PREAUTHS = 200;
const ROWS = SALES * 2 + PREAUTHS;
/** Kill points: rows finished since the run started. */
const KILL_AFTER = [150, 300];

async function orders(client: ReturnType<typeof shopClient>, kind: 'SALE' | 'PREAUTH', n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50)
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, () => approvedOrder(client, kind, '10.00')),
      )),
    );
  return ids;
}

it(`${ROWS} batch rows, killed mid-batch ${KILL_AFTER.length} times: one transaction per row, every row final`, async () => {
  const started = Date.now();
  const sandbox = await startUnforgivingSandbox(300);
  const desk = createDesk(sandbox);
  try {
    const direct = shopClient(sandbox, CONTROL_KEY);
    const sales = await orders(direct, 'SALE', SALES);
    const preauths = await orders(direct, 'PREAUTH', PREAUTHS);
    // Semicolons, a BOM, CRLF, quoted notes with the delimiter and quotes in them.
    const lines = ['\uFEFFoperation;orderid;amount;currency;reason;note'];
    sales.forEach((id, i) => {
      lines.push(`refund;${id};3.50;EUR;Damaged;"box ${i}; ""crushed"""`);
      lines.push(`refund;${id};1.25;EUR;Late delivery;`);
    });
    for (const id of preauths) lines.push(`capture;${id};7.00;EUR;;shipped`);
    const csv = lines.join('\r\n') + '\r\n';

    // The preview: checked and stored, nothing sent.
    const setup = await desk.start();
    const service = new BatchService(setup.db, setup.port, new Profiles(setup.db), setup.service, {
      operator: 'ann',
    });
    const { batch, rows } = await service.load(desk.profileId, 'month-end.csv', csv, 16);
    expect(rows.filter((r) => r.problem)).toEqual([]);
    expect(batch.totals).toEqual([
      { operation: 'capture', currency: 'EUR', amount: '1400.00', rows: PREAUTHS },
      { operation: 'refund', currency: 'EUR', amount: '1900.00', rows: SALES * 2 },
    ]);
    expect(rows[0]).toMatchObject({ note: 'box 0; "crushed"', amount: '3.50' });
    expect(sandbox.orders(SHOP.endpointId).filter((o) => o.kind === 'reversal')).toHaveLength(0);
    await setup.stop();

    sandbox.misbehave(
      unforgiving(300, {
        dropAnswerShare: 0.1,
        serverErrorShare: 0.05,
        operations: ['RETURN', 'CAPTURE', 'STATUS'],
      }),
    );
    const watch = openDatabase(desk.file);
    const watched = new Batches(watch);
    const finished = () => {
      const c = watched.counts(batch.id);
      return c.done + c.failed;
    };
    let kills = 0;
    let complete = '';
    let interruptedSeen = 0;
    for (let run = 0; run <= KILL_AFTER.length && !complete; run++) {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, 'fixtures', 'batch-worker.ts'),
          desk.file,
          desk.profileId,
          String(batch.id),
        ],
        {
          env: { ...process.env, PAYDESK_TEST_CONTROL_KEY: CONTROL_KEY },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      await until(() => output.includes('ready') || child.exitCode !== null, 30_000, 'start');
      if (output.includes(`interrupted=${batch.id}`)) interruptedSeen++;
      const killAt = KILL_AFTER[run];
      if (killAt !== undefined) {
        const from = finished();
        await until(
          () => finished() - from >= killAt || child.exitCode !== null,
          60_000,
          `${killAt} rows`,
        );
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          kills++;
        }
        await exited;
      } else {
        expect(await exited, output).toBe(0);
      }
      complete = /complete (\w+)/.exec(output)?.[1] ?? '';
    }
    watch.close();
    expect(kills).toBe(KILL_AFTER.length);
    expect(interruptedSeen).toBe(KILL_AFTER.length);
    expect(complete).toBe('done');
    sandbox.misbehave({});

    // At the gateway: every action id of the batch, and how many transactions each made.
    const after = await desk.start();
    const store = new Batches(after.db);
    const perAction = new Map<string, number>();
    for (const o of sandbox.orders(SHOP.endpointId))
      perAction.set(o.clientOrderId, (perAction.get(o.clientOrderId) ?? 0) + 1);
    const actionIds = store.actionIds(batch.id);
    const sentTwice = actionIds.filter((id) => (perAction.get(id) ?? 0) > 1).length;
    expect(sentTwice).toBe(0);
    const finalRows = store.rows(batch.id);
    expect(finalRows).toHaveLength(ROWS);
    const byLine = new Map<number, string[]>();
    const links = after.db
      .prepare('SELECT action_id, line FROM batch_actions WHERE batch_id = ?')
      .all(batch.id) as { action_id: string; line: number }[];
    for (const l of links) byLine.set(l.line, [...(byLine.get(l.line) ?? []), l.action_id]);
    for (const row of finalRows) {
      expect(row.state, `line ${row.line}: ${row.error ?? ''}`).toBe('done');
      const transactions = (byLine.get(row.line) ?? []).reduce(
        (n, id) => n + (perAction.get(id) ?? 0),
        0,
      );
      expect(transactions, `line ${row.line}`).toBe(1);
    }
    // The journal: every entry of the batch final, the approved one being the row's action.
    const retried = finalRows.filter((r) => r.attempt > 0).length;
    for (const id of actionIds) {
      const entry = after.journal.get(id);
      expect(entry, id).toBeDefined();
      expect(['final', 'refused']).toContain(entry?.state);
      if (entry?.state === 'refused') expect(perAction.get(id) ?? 0).toBe(0);
    }
    for (const row of finalRows)
      expect(after.journal.get(row.actionId ?? '')).toMatchObject({
        state: 'final',
        status: 'approved',
      });
    // The figures the clerk sees: each sale refunded 4.75 of 10.00.
    for (const id of sales.slice(0, 5)) {
      const view = await after.service.lookup(desk.profileId, { orderid: id });
      expect(view).toMatchObject({ refunded: '4.75', remainingRefundable: '5.25', pending: [] });
    }
    await after.stop();
    summary(
      'batch',
      ROWS,
      finalRows.filter((r) => r.state === 'done').length,
      `kills ${kills} sent-twice ${sentTwice} new-action-after-not-received ${retried} in ${Math.round((Date.now() - started) / 1000)}s`,
    );
  } finally {
    await sandbox.close();
    desk.dispose();
  }
}, 150_000);
