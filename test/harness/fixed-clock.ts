// The screenshots' clock: `npm run screenshots` run twice must draw the same pictures, and
// every time on them (journal entries, the sandbox's demo orders, recent orders, a batch's
// start, the renderer's "today") comes from Date. So the screenshot process, and only it, runs
// on a Date that stands still at a fixed instant and moves only when told (one step per page
// opened): the same steps on every run give the same times. Timers are untouched (they run on
// the event loop's own clock), so waits, timeouts and the sandbox's ticks work as always; the
// sandbox runs with no processing delay, as its delays are measured on this Date.
// The app never loads this file.

import { writeFileSync } from 'node:fs';

import type { Page, PageScreenshotOptions } from 'playwright-core';

/** Saturday 14 March 2026, 09:26 in Berlin: the README's pictures show this morning. */
export const SCREENSHOT_START = Date.parse('2026-03-14T08:26:00.000Z');
/** The zone the pictures are drawn in, for Node and for the page (an offset to show). */
export const SCREENSHOT_ZONE = 'Europe/Berlin';

export interface FixedClock {
  now(): number;
  /** Moves the clock forward by `ms` (the process's Date and every page it was given). */
  advance(ms: number): Promise<void>;
  /** Gives a page the same fixed time (playwright's page.clock); timers keep running. */
  attach(page: Page): Promise<void>;
}

let installed: FixedClock | undefined;

/** Replaces the process's Date with one fixed at `start` (once; later calls get the same). */
export function installFixedClock(start = SCREENSHOT_START): FixedClock {
  if (installed) return installed;
  process.env.TZ = SCREENSHOT_ZONE;
  const RealDate = Date;
  let current = start;
  const pages = new Set<Page>();
  const now = () => current;
  const FixedDate = new Proxy(RealDate, {
    // new Date() is now; new Date(x) is x, as always.
    construct: (target, args: unknown[], newTarget: NewableFunction) =>
      Reflect.construct(target, args.length === 0 ? [current] : args, newTarget) as object,
    // Date() called without new: the time as text.
    apply: () => new RealDate(current).toString(),
    get: (target, key, receiver: unknown) =>
      key === 'now' ? now : (Reflect.get(target, key, receiver) as unknown),
  });
  globalThis.Date = FixedDate;
  const clock: FixedClock = {
    now,
    advance: async (ms) => {
      current += ms;
      for (const page of pages)
        if (!page.isClosed()) await page.clock.setFixedTime(current).catch(() => undefined);
    },
    attach: async (page) => {
      pages.add(page);
      page.once('close', () => pages.delete(page));
      await page.clock.setFixedTime(current);
    },
  };
  installed = clock;
  return clock;
}

/**
 * A screenshot taken once the page has stopped changing (two in a row alike, 10 tries at most):
 * a header count or a field's border that a late answer redraws must not make one run differ
 * from the next.
 */
export async function stableScreenshot(
  page: Page,
  options: PageScreenshotOptions & { path: string },
): Promise<void> {
  const { path, ...rest } = options;
  let last = await page.screenshot(rest);
  for (let tries = 0; tries < 10; tries++) {
    await new Promise((r) => setTimeout(r, 150));
    const next = await page.screenshot(rest);
    if (next.equals(last)) break;
    last = next;
  }
  writeFileSync(path, last);
}
