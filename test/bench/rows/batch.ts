// Row 1b: a batch of refunds from a CSV, loaded (every order's status checked) and run to its
// end through BatchService against a sandbox answering every request 200 ms late, 4 and 16 rows
// at a time, against the ideal of 3 requests per row at that pace (the check's status, the
// return, the follow-up's status): rows x 3 x 200 ms / width. The reference is computed, not
// measured: at this latency the wait is the gateway's, not the machine's.

import { startSandbox } from '../../../main/sandbox';
import { BatchService } from '../../../main/services/batch/batch';
import { Profiles } from '../../../main/store/sqlite/profiles';
import { CONTROL_KEY, createDesk } from '../../reliability/support';
import { approvedOrder, SHOP, shopClient } from '../../support/shop';
import type { BenchLine, BenchRow } from '../lib/report';
import { ms, now, num, ratio } from '../lib/stats';

const LATENCY_MS = 200;
const WIDTHS = [4, 16] as const;
/** A run that takes longer than this many times its ideal is paused there and reported so. */
const BOUND = 3;

export const batchRow: BenchRow = {
  id: '1b',
  title: 'batch of refunds at the gateway pace',
  async run(context) {
    const rows = 1_000;
    const sandbox = await startSandbox({
      merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
      delayMs: 0,
      tickMs: 50,
      log: () => undefined,
    });
    const desk = createDesk(sandbox);
    const paydesk = await desk.start();
    const lines: BenchLine[] = [];
    try {
      const batches = new BatchService(
        paydesk.db,
        paydesk.port,
        new Profiles(paydesk.db),
        paydesk.service,
        { operator: 'bench' },
      );
      const client = shopClient(sandbox, CONTROL_KEY);
      for (const width of WIDTHS) {
        // The sales, made untimed and without latency, bounded by count.
        sandbox.misbehave({});
        const sales: string[] = [];
        while (sales.length < rows)
          sales.push(
            ...(await Promise.all(
              Array.from({ length: Math.min(50, rows - sales.length) }, () =>
                approvedOrder(client, 'SALE', '10.00'),
              ),
            )),
          );
        const csv = ['operation,orderid,amount,currency,reason']
          .concat(sales.map((id) => `refund,${id},2.50,EUR,Damaged goods`))
          .join('\n');
        sandbox.misbehave({ latencyMs: LATENCY_MS });
        const ideal = (rows * 3 * LATENCY_MS) / width;
        const requests = () => sandbox.received('STATUS') + sandbox.received('RETURN');
        const sent = requests();
        context.log(`row 1b: ${num(rows)} refunds, ${width} at a time (ideal ${ms(ideal)})`);
        const start = now();
        const { batch } = await batches.load(desk.profileId, `refunds-${width}.csv`, csv, width);
        const loaded = now() - start;
        batches.start(batch.id);
        const bound = setTimeout(() => batches.pause(batch.id), BOUND * ideal - loaded);
        await batches.idle(batch.id);
        clearTimeout(bound);
        const took = now() - start;
        const view = batches.get(batch.id);
        const finished = view.progress.done + view.progress.failed;
        const perRow = (requests() - sent) / rows;
        lines.push({
          figure: `batch of ${num(rows)} refunds, gateway answering in ${LATENCY_MS} ms, ${width} at a time`,
          project: `${ms(took)} (${perRow.toFixed(2)} requests per row${finished < rows ? `; stopped at ${finished} rows` : ''}${view.progress.failed > 0 ? `; ${view.progress.failed} failed` : ''})`,
          reference: `3 requests per row: ${ms(ideal)}`,
          ratio: ratio(took, ideal),
          target: '<= 1.1x',
          met: finished === rows && took <= 1.1 * ideal,
          note: `one run per width: the file loaded (each order's status read ${width} at a time), then run to its end by BatchService (${width} rows at a time) through OrderService against the sandbox with ${LATENCY_MS} ms added to every answer and transactions final at once (delay 0); time from load to the batch's end, requests counted in the sandbox's log (STATUS + RETURN) per row; the reference is rows x 3 x ${LATENCY_MS} ms / ${width}. Load ${ms(loaded)}. Bounded: a run past ${BOUND}x its ideal is paused and reported as stopped`,
        });
      }
    } finally {
      await paydesk.stop();
      await sandbox.close();
      desk.dispose();
    }
    return lines;
  },
};
