// The bench's repetitions (test/bench/lib/stats.ts): a reference that moved by more than 20%
// between the last two repetitions (the machine's load changed under it) gets more of them,
// up to a bound; a steady one gets exactly the repetitions asked for.

import { expect, it } from 'vitest';

import { interleave, moved } from '../../bench/lib/stats';

/** A side that hands out `values` one per repetition, counting its calls. */
function side(values: number[]) {
  let calls = 0;
  return {
    run: () => Promise.resolve(values[calls++] ?? (values.at(-1) as number)),
    calls: () => calls,
  };
}

it('says a reference moved when the last two repetitions differ by more than 20%', () => {
  expect(moved([100, 119])).toBe(false);
  expect(moved([100, 121])).toBe(true);
  expect(moved([121, 100])).toBe(true);
  expect(moved([50, 100, 110])).toBe(false);
  expect(moved([100])).toBe(false);
});

it('repeats while the reference moves, and no more than twice the repetitions', async () => {
  const steady = side([10, 10, 10, 10]);
  const runs = await interleave(3, () => Promise.resolve(1), steady.run);
  expect(steady.calls()).toBe(3);
  expect(runs.repeated).toBe(0);

  // Settles after one more repetition.
  const settling = side([10, 10, 20, 21]);
  const settled = await interleave(3, () => Promise.resolve(1), settling.run);
  expect(settled.reference).toEqual([10, 10, 20, 21]);
  expect(settled.project).toHaveLength(4);
  expect(settled.repeated).toBe(1);

  // Never settles: bounded.
  const jumping = side([10, 20, 10, 20, 10, 20, 10, 20]);
  const bounded = await interleave(3, () => Promise.resolve(1), jumping.run);
  expect(jumping.calls()).toBe(6);
  expect(bounded.repeated).toBe(3);

  // Objects: the figure is read by figureOf.
  const objects = await interleave(
    2,
    () => Promise.resolve({ ms: 1 }),
    (rep) => Promise.resolve({ ms: rep === 0 ? 10 : 30 }),
    { figureOf: (r) => r.ms },
  );
  expect(objects.repeated).toBe(1);
});
