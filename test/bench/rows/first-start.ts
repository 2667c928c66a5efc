// Row 9: from spawning a process to "services ready" on a first start, against an empty script
// under the same launcher, so the launcher's own cost cancels out. The launcher is plain node
// running the main bundle the app ships (vite.main.config.ts, built here first): Electron runs
// that bundle, never main/'s TypeScript, so transpiling it at start is a cost no user pays.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { nextMessage, spawnNode, stopChild } from '../lib/child';
import type { BenchRow } from '../lib/report';
import { median, ms, now, ratio } from '../lib/stats';

const REPS = 7;
const ROOT = new URL('../../../', import.meta.url).pathname;

interface Ready {
  ready: boolean;
  /** Only from first-start.cjs: the launcher's share, loading the bundle, and start() itself. */
  enteredMs?: number;
  importMs?: number;
  startMs?: number;
  /** CPU time (all threads, user + system) until ready: less at the mercy of the machine's load. */
  cpuMs?: number;
  /** Only from first-start.cjs --contract: building the bridge's contract (zod schemas). */
  contractMs?: number;
  /** Only from first-start.cjs --contract: from ready until the Sandbox profile has its key. */
  keyMs?: number;
  /** Only from first-start.cjs --contract: the first two lookups after ready (the first opens the sandbox's state). */
  lookupMs?: [number, number];
  /** Only from first-start.cjs: each step of start (as the window says them), in ms. */
  stepMs?: Record<string, number>;
  /** Only from first-start.cjs: the sandbox's database existed when start returned. */
  sandboxStateAtReady?: boolean;
}

async function untilReady(
  script: string,
  args: readonly string[] = [],
): Promise<Ready & { elapsedMs: number }> {
  const start = now();
  const child = spawnNode(script, args);
  try {
    const message = await nextMessage<Ready>(child, 60_000);
    const elapsedMs = now() - start;
    if (!message.ready) throw new Error(`${script} started without its sandbox`);
    return { ...message, elapsedMs };
  } finally {
    await stopChild(child, 10_000); // it closes and cleans up by itself
  }
}

/** out/main as `npm run build` makes it, from this tree, plus headless.cjs (`--mode bench`). */
function buildMain(): void {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', '--config', 'vite.main.config.ts', '--mode', 'bench', '--logLevel', 'warn'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

export const firstStartRow: BenchRow = {
  id: '9',
  title: 'first start to services ready',
  async run(context) {
    buildMain();
    const caches = mkdtempSync(join(tmpdir(), 'paydesk-bench-cache-'));
    try {
      // The app's compile cache, as on a computer where Paydesk has started before (the data
      // folder is new on every start): the untimed runs below fill it.
      const warm = join(caches, 'warm');
      // The bridge's contract, timed apart in untimed runs; the first of them fills the cache.
      const contract: number[] = [];
      const key: number[] = [];
      const firstLookup: number[] = [];
      const secondLookup: number[] = [];
      for (let rep = 0; rep < 3; rep++) {
        const run = await untilReady('first-start.cjs', [warm, '--contract']);
        contract.push(run.contractMs ?? Number.NaN);
        key.push(run.keyMs ?? Number.NaN);
        firstLookup.push(run.lookupMs?.[0] ?? Number.NaN);
        secondLookup.push(run.lookupMs?.[1] ?? Number.NaN);
      }
      await untilReady('empty.cjs');
      const project: Awaited<ReturnType<typeof untilReady>>[] = [];
      const reference: Awaited<ReturnType<typeof untilReady>>[] = [];
      const cold: number[] = [];
      for (let rep = 0; rep < REPS; rep++) {
        project.push(await untilReady('first-start.cjs', [warm]));
        reference.push(await untilReady('empty.cjs'));
        // The very first start on a computer: nothing compiled yet.
        cold.push((await untilReady('first-start.cjs', [join(caches, `cold-${rep}`)])).elapsedMs);
      }
      const a = median(project.map((r) => r.elapsedMs));
      const b = median(reference.map((r) => r.elapsedMs));
      const c = median(cold);
      const part = (key: 'enteredMs' | 'importMs' | 'startMs' | 'cpuMs') =>
        ms(median(project.map((r) => r[key] ?? Number.NaN)));
      const referenceCpu = ms(median(reference.map((r) => r.cpuMs ?? Number.NaN)));
      const stepNames = Object.keys(project[0]?.stepMs ?? {});
      const steps = stepNames
        .map((name) => `${name} ${ms(median(project.map((r) => r.stepMs?.[name] ?? Number.NaN)))}`)
        .join(', ');
      context.log(
        `row 9: first start ${ms(a)}, empty script ${ms(b)}, cold compile cache ${ms(c)}`,
      );
      return [
        {
          figure: 'first start to services ready',
          project: `${ms(a)} (the sandbox's database made before ready in ${project.filter((r) => r.sandboxStateAtReady).length} of ${project.length} starts)`,
          reference: `empty script, same launcher: ${ms(b)}`,
          ratio: ratio(a, b),
          target: "the sandbox's state and seed off the way to ready",
          met: project.every((r) => r.sandboxStateAtReady === false),
          note: `spawn to the "ready" line, ${REPS} x each interleaved, medians; launcher: plain node running the main bundle the app ships (out/main, built by vite.main.config.ts; headless.cjs loads the same chunks as Electron's index.cjs, without Electron), the empty script under plain node. PaydeskServices.start on a fresh temp data folder with the in-memory secret store (makes the Sandbox profile and starts the embedded sandbox listening; its database, migrations and demo seed are made at its first use, off the figure: in untimed runs the first lookup after ready took ${ms(median(firstLookup))} (it waits for the profile's key, whose arrival makes the sandbox's state), the second ${ms(median(secondLookup))}; the profile's 2048-bit key is made on libuv's pool once start has returned, and what needs it waits for it: in untimed runs it was attached ${ms(median(key))} after ready), with the app's compile cache warm as on a computer where Paydesk has run before (the very first start, cache empty: ${ms(c)}, ${ratio(c, b)}). Inside the child: launcher until the script runs ${part('enteredMs')}, loading the bundle ${part('importMs')}, start() ${part('startMs')} (its steps: ${steps}); CPU time until ready (all threads) ${part('cpuMs')} against the empty script's ${referenceCpu}. Not in the figure: the bridge's contract (common/contract.ts's zod schemas), which the app builds after the services and before its first window: ${ms(median(contract))}`,
        },
      ];
    } finally {
      rmSync(caches, { recursive: true, force: true });
    }
  },
};
