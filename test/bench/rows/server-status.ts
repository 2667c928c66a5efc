// Row 1: the sandbox answering a signed `status` on 16 kept-alive connections, against a bare
// node:http server answering the same bytes. Both servers run in one child process (a core of
// their own); the load comes from this process.

import { nextMessage, spawnTs, stopChild } from '../lib/child';
import { runLoad, type Shot } from '../lib/load';
import type { BenchLine, BenchRow } from '../lib/report';
import { interleave, median, num, ratio } from '../lib/stats';

const CONNECTIONS = 16;
const REPS = 5;
const DURATION_MS = 1_000;
const MAX_REQUESTS = 200_000;

export interface StatusShots {
  sandbox: Shot;
  bare: Shot;
  credentials: { baseUrl: string; login: string; endpointId: string; controlKey: string };
}

export const serverStatusRow: BenchRow = {
  id: '1',
  title: 'sandbox answering a signed status',
  async run(context) {
    const child = spawnTs('status-servers.ts');
    try {
      const shots = await nextMessage<StatusShots>(child, 60_000);
      const load = (shot: Shot, durationMs = DURATION_MS) =>
        runLoad(shot, { connections: CONNECTIONS, durationMs, maxRequests: MAX_REQUESTS });
      // Warm both (JIT, sockets) before measuring.
      await load(shots.sandbox, 300);
      await load(shots.bare, 300);
      const runs = await interleave(
        REPS,
        () => load(shots.sandbox),
        () => load(shots.bare),
        { figureOf: (r) => r.perSecond },
      );
      const errors = [...runs.project, ...runs.reference].reduce((n, r) => n + r.errors, 0);
      const project = median(runs.project.map((r) => r.perSecond));
      const reference = median(runs.reference.map((r) => r.perSecond));
      context.log(`row 1: sandbox ${num(project)} req/s, bare ${num(reference)} req/s`);
      const line: BenchLine = {
        figure: `sandbox answering a signed status (${CONNECTIONS} keep-alive connections)`,
        project: `${num(project)} req/s`,
        reference: `bare node:http, same JSON: ${num(reference)} req/s`,
        ratio: ratio(project, reference),
        target: '>= 0.5x bare',
        met: project / reference >= 0.5,
        note: `${REPS} x ${DURATION_MS / 1000} s each, interleaved, medians; load from this process on raw kept-alive sockets (node:net, a prebuilt request; node:http's client could not keep up with the bare server here), servers in one child process${errors ? `; ${errors} non-200 answers or errors` : ''}`,
      };
      return [line];
    } finally {
      await stopChild(child);
    }
  },
};
