// Row 5: one `client.status` round trip (sign, send, read, parse), p50, against the same
// prepared request sent by plain node:http with a keep-alive agent, both to the bare server of
// row 1 (so the server's own cost does not hide the client's). undici is not a direct
// dependency, so node:http is the reference.

import http from 'node:http';

import { GatewayClient } from '../../../main/gateway/client';
import { nextMessage, spawnTs, stopChild } from '../lib/child';
import { send } from '../lib/load';
import type { BenchRow } from '../lib/report';
import { interleave, median, ms, now, percentile, ratio } from '../lib/stats';
import type { StatusShots } from './server-status';

const REPS = 5;
const CALLS = 300;

export const roundTripRow: BenchRow = {
  id: '5',
  title: 'client.status round trip',
  async run(context) {
    const child = spawnTs('status-servers.ts');
    try {
      const shots = await nextMessage<StatusShots>(child, 60_000);
      // The bare server answers any path; the client's base URL points at it.
      const bareBase = new URL(shots.bare.url).origin + new URL(shots.credentials.baseUrl).pathname;
      const client = new GatewayClient({ ...shots.credentials, baseUrl: bareBase });
      const orderid = new URLSearchParams(shots.bare.body).get('orderid') ?? '';
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

      const p50 = async (one: () => Promise<unknown>) => {
        const samples: number[] = [];
        for (let i = 0; i < CALLS; i++) {
          const start = now();
          await one();
          samples.push(now() - start);
        }
        return percentile(samples, 50);
      };
      const project = () =>
        p50(async () => {
          const answer = await client.status({ orderid });
          if (answer.status !== 'approved') throw new Error(`status ${answer.status}`);
        });
      const reference = () =>
        p50(async () => {
          const code = await send(shots.bare, agent);
          if (code !== 200) throw new Error(`HTTP ${code}`);
        });
      await project();
      await reference();
      const runs = await interleave(REPS, project, reference);
      agent.destroy();
      const a = median(runs.project);
      const b = median(runs.reference);
      context.log(`row 5: client.status ${ms(a)}, node:http ${ms(b)}`);
      return [
        {
          figure: '`client.status` round trip p50',
          project: ms(a),
          reference: `node:http keep-alive request, same bytes: ${ms(b)}`,
          ratio: ratio(a, b),
          target: '<= 1.2x',
          met: a / b <= 1.2,
          note: `${REPS} x ${CALLS} sequential calls to a bare server in another process, interleaved; median of the p50s. undici.request is not a direct dependency, so node:http (keep-alive agent) is the reference`,
        },
      ];
    } finally {
      await stopChild(child);
    }
  },
};
