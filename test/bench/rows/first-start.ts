// Row 9: from spawning a process to "services ready" on a first start, against an empty script
// under the same launcher (node --import tsx), so the launcher's own cost cancels out.

import { nextMessage, spawnTs, stopChild } from '../lib/child';
import type { BenchRow } from '../lib/report';
import { interleave, median, ms, now, ratio } from '../lib/stats';

const REPS = 5;

interface Ready {
  ready: boolean;
  /** Only from first-start.ts: the launcher's share, the imports, and start() itself. */
  enteredMs?: number;
  importMs?: number;
  startMs?: number;
}

async function untilReady(script: string): Promise<Ready & { elapsedMs: number }> {
  const start = now();
  const child = spawnTs(script);
  try {
    const message = await nextMessage<Ready>(child, 60_000);
    const elapsedMs = now() - start;
    if (!message.ready) throw new Error(`${script} started without its sandbox`);
    return { ...message, elapsedMs };
  } finally {
    await stopChild(child, 10_000); // it closes and cleans up by itself
  }
}

export const firstStartRow: BenchRow = {
  id: '9',
  title: 'first start to services ready',
  async run(context) {
    // Once each, untimed: tsx's transform cache is warm for both, as on any start but the first.
    await untilReady('first-start.ts');
    await untilReady('empty.ts');
    const runs = await interleave(
      REPS,
      () => untilReady('first-start.ts'),
      () => untilReady('empty.ts'),
    );
    const a = median(runs.project.map((r) => r.elapsedMs));
    const b = median(runs.reference.map((r) => r.elapsedMs));
    const part = (key: 'enteredMs' | 'importMs' | 'startMs') =>
      ms(median(runs.project.map((r) => r[key] ?? Number.NaN)));
    context.log(`row 9: first start ${ms(a)}, empty script ${ms(b)}`);
    return [
      {
        figure: 'first start to services ready',
        project: ms(a),
        reference: `empty script, same launcher: ${ms(b)}`,
        ratio: ratio(a, b),
        target: '<= 1.3x',
        met: a / b <= 1.3,
        note: `spawn to the "ready" line, ${REPS} x each interleaved, medians; PaydeskServices.start on a fresh temp data folder with the in-memory secret store (makes the Sandbox profile and its 2048-bit key, starts and seeds the embedded sandbox); launcher: node --import tsx. Inside the child: launcher until the script runs ${part('enteredMs')}, importing main/ ${part('importMs')}, start() ${part('startMs')}`,
      },
    ];
  },
};
