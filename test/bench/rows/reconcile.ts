// Row "reconcile": a reconciliation of 10,000 journal entries against a gateway that takes
// 200 ms to answer each `status` (the sandbox's latency switch), at 400 requests a second and
// 100 at once. The rate allows 25 s; the gateway's latency alone, at 100 at once, would allow
// 20 s, so the run is bound by the rate and by nothing of Paydesk's own (planning the run,
// comparing, writing each answer) if it ends close to the rate-bound ideal. Every entry is a
// sale the sandbox holds, approved in the journal, so each line is a real status and a real
// comparison.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GatewayClient } from '../../../main/gateway/client';
import { startSandbox } from '../../../main/sandbox';
import { MemorySecretStore } from '../../../main/secrets';
import { Connections } from '../../../main/services/connection';
import { ReconcileService } from '../../../main/services/reconcile/reconcile';
import { openDatabase } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';
import { Profiles } from '../../../main/store/sqlite/profiles';
import type { BenchLine, BenchRow } from '../lib/report';
import { ms, now, num, ratio } from '../lib/stats';

const ENTRIES = 10_000;
const PER_SECOND = 400;
const AT_ONCE = 100;
const LATENCY_MS = 200;
const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const SHOP = { login: 'bench-shop', endpointId: '4242' };
const CARD = {
  credit_card_number: '4444555566661111',
  card_printed_name: 'BENCH SHOP',
  expire_month: '12',
  expire_year: '2030',
  cvv2: '123',
};

export const reconcileRow: BenchRow = {
  id: 'reconcile',
  title: 'reconciliation of 10,000 entries, gateway answering in 200 ms',
  async run(context) {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-reconcile-'));
    const sandbox = await startSandbox({
      merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
      delayMs: 0,
      log: () => undefined,
    });
    const db = openDatabase(join(dir, 'paydesk.sqlite'));
    try {
      const profiles = new Profiles(db);
      const profileId = profiles.create({
        name: 'Bench',
        environment: 'sandbox',
        baseUrl: sandbox.baseUrl,
        ...SHOP,
      }).id;
      const secrets = new MemorySecretStore();
      await secrets.set(profileId, 'control-key', CONTROL_KEY);

      context.log(`reconcile: ${num(ENTRIES)} sales at the sandbox and in the journal`);
      const shop = new GatewayClient({
        baseUrl: sandbox.baseUrl,
        ...SHOP,
        controlKey: CONTROL_KEY,
      });
      const sales: { id: string; orderId: string }[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < ENTRIES) {
            const id = `bench-sale-${next++}`;
            const ack = await shop.call('SALE', {
              client_orderid: id,
              amount: '1.00',
              currency: 'EUR',
              email: 'bench@example.com',
              ipaddress: '203.0.113.7',
              order_desc: 'Bench',
              ...CARD,
            });
            sales.push({ id, orderId: ack.orderId ?? '' });
          }
        }),
      );
      shop.close();
      const journal = new Journal(db);
      db.transaction(() => {
        for (const sale of sales) {
          journal.begin({
            clientOrderId: sale.id,
            profileId,
            operator: 'bench',
            operation: 'SALE',
            amountMinor: 100n,
            currency: 'EUR',
            fields: { client_orderid: sale.id },
          });
          journal.finish(sale.id, { status: 'approved', orderId: sale.orderId });
        }
      })();

      sandbox.misbehave({ latencyMs: LATENCY_MS, operations: ['STATUS'] });
      const service = new ReconcileService(
        db,
        new SqliteJournalPort(db, journal),
        profiles,
        new Connections(profiles, secrets),
        { operator: 'bench' },
      );
      const before = sandbox.requests().length;
      const from = new Date(Date.now() - 86_400_000).toISOString();
      const to = new Date(Date.now() + 86_400_000).toISOString();
      context.log(`reconcile: the run, at ${PER_SECOND} a second, ${AT_ONCE} at once`);
      const start = now();
      const run = await service.create({
        profileId,
        from,
        to,
        perSecond: PER_SECOND,
        atOnce: AT_ONCE,
      });
      const planned = now() - start;
      await service.settled(run.id);
      const total = now() - start;
      const view = service.view(run.id);
      const sent = sandbox.requests().slice(before);
      const onlyStatus = sent.every((r) => r.operation === 'STATUS');
      const ideal = (ENTRIES / PER_SECOND) * 1000;
      const lines: BenchLine[] = [
        {
          figure: `reconcile ${num(ENTRIES)} entries (${LATENCY_MS} ms a status, ${PER_SECOND}/s, ${AT_ONCE} at once)`,
          project: ms(total),
          reference: `${ms(ideal)} rate-bound ideal`,
          ratio: ratio(total, ideal),
          target: 'within 5% of the rate-bound ideal',
          met: view.state === 'done' && total <= ideal * 1.05,
          note:
            `planning the run (reading ${num(ENTRIES)} entries, storing its lines) took ${ms(planned)}; ` +
            `${num(view.progress.agrees)} lines agree, ${num(view.progress.differs)} disagree, ` +
            `${num(view.progress.unreadable)} could not be read; ${num(sent.length)} requests reached the sandbox, ` +
            `${onlyStatus ? 'every one a status' : 'NOT ALL STATUS'}.`,
        },
      ];
      return lines;
    } finally {
      db.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
