// Row 6b: the first screen painted in headless Chromium with the real bridge and services
// (test/harness), with a journal of 1,000,000 entries against one of 100: the page loaded and the
// Journal screen's newest row shown, and the start screen (Orders, with the header's pending
// counter, which asks the journal) painted. The fixture is written straight into SQLite by one
// INSERT ... SELECT, as test/e2e/journal-million.test.ts does (a million rows through the app
// would take minutes).

import { join } from 'node:path';

import { build } from 'vite';

import { closeSharedBrowser, startHarness, type Harness } from '../../harness/harness';
import { bulkRef, fillBulkJournal } from '../../support/bulk-journal';
import type { BenchLine, BenchRow } from '../lib/report';
import { median, ms, num, ratio } from '../lib/stats';

const ROOT = new URL('../../../', import.meta.url).pathname;
const REPS = 5;
const BIG = 1_000_000;
const SMALL = 100;

async function harnessWith(entries: number): Promise<Harness> {
  // No automatic backup: the app's first one starts 15 s after start, after the first screen;
  // here, where the journal is written after the services started, it would fall while the
  // pages load (a backup of 1,000,000 entries takes tens of seconds).
  const h = await startHarness({ services: { backups: 'off' } });
  h.page.setDefaultTimeout(120_000);
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no sandbox profile');
  fillBulkJournal(h.services.db, sandbox.id, entries);
  await watchMarks(h, bulkRef(entries - 1));
  // Settled into the database file, as a desk's journal is that grew over months: not a WAL of
  // a million fresh rows for the first reads to go through.
  h.services.db.pragma('wal_checkpoint(TRUNCATE)');
  return h;
}

/** When each awaited element first entered the page's DOM, in ms from the navigation's start. */
interface Marks {
  newestRow?: number;
  ordersHeading?: number;
  pendingCount?: number;
}

/**
 * Records, in the page, when each element a figure waits for first enters the DOM (a mutation
 * observer, from the navigation's start). Playwright's waitFor says only that it is there by its
 * next look, and it looks at growing intervals, up to 500 ms apart: a time taken from it moved
 * by half a second with the moment the element came. Given as text: a function from these
 * sources would carry the names tsx gives it, which the page does not have.
 */
async function watchMarks(h: Harness, newestRef: string): Promise<void> {
  await h.page.addInitScript({
    content: `(() => {
      const ref = ${JSON.stringify(newestRef)};
      const marks = {};
      window.__benchMarks = marks;
      const texts = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent ?? '');
      const checks = {
        newestRow: () => texts('[role="row"], tr').some((text) => text.includes(ref)),
        ordersHeading: () => texts('h1').includes('Orders'),
        pendingCount: () => /^\\d+ pending$/.test(texts('.pending-counter')[0] ?? ''),
      };
      new MutationObserver(() => {
        for (const [name, present] of Object.entries(checks))
          if (marks[name] === undefined && present()) marks[name] = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
    })();`,
  });
}

async function marks(h: Harness): Promise<Marks> {
  return h.page.evaluate(() => (window as unknown as { __benchMarks: Marks }).__benchMarks);
}

function markOf(found: Marks, name: keyof Marks): number {
  const at = found[name];
  if (at === undefined) throw new Error(`the page showed no ${name}`);
  return at;
}

/**
 * Opens the app at `hash` in a new document: from the app itself, a URL that differs only by its
 * hash would be a change of screen in the page already loaded, not a load.
 */
async function load(h: Harness, hash: string): Promise<void> {
  await h.page.goto('about:blank');
  await h.open(hash);
}

/** Page load to the Journal's newest row on screen. */
async function journalPainted(h: Harness, entries: number): Promise<number> {
  await load(h, '#/journal');
  await h.page
    .getByRole('row')
    .filter({ hasText: bulkRef(entries - 1) })
    .waitFor();
  return markOf(await marks(h), 'newestRow');
}

/** Page load to the start screen (Orders) and the header's pending count painted. */
async function startPainted(h: Harness): Promise<number> {
  await load(h, '');
  await h.page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
  await h.page.getByText(/^\d+ pending$/).waitFor();
  const found = await marks(h);
  return Math.max(markOf(found, 'ordersHeading'), markOf(found, 'pendingCount'));
}

export const firstRenderRow: BenchRow = {
  id: '6b',
  title: 'first render with a journal of 1,000,000',
  async run(context) {
    // The renderer as the sources are now (the harness serves out/renderer).
    await build({ configFile: join(ROOT, 'vite.renderer.config.ts'), logLevel: 'warn' });
    context.log(`row 6b: writing the ${num(BIG)}-entry journal`);
    const big = await harnessWith(BIG);
    const small = await harnessWith(SMALL);
    try {
      const times = { bigJournal: [] as number[], smallJournal: [] as number[] };
      const starts = { big: [] as number[], small: [] as number[] };
      // Each page's first load compiles and caches what later ones reuse: untimed.
      await journalPainted(big, BIG);
      await journalPainted(small, SMALL);
      for (let rep = 0; rep < REPS; rep++) {
        times.bigJournal.push(await journalPainted(big, BIG));
        times.smallJournal.push(await journalPainted(small, SMALL));
        starts.big.push(await startPainted(big));
        starts.small.push(await startPainted(small));
      }
      const a = median(times.bigJournal);
      const b = median(times.smallJournal);
      const c = median(starts.big);
      const d = median(starts.small);
      context.log(`row 6b: journal ${ms(a)} vs ${ms(b)}; start screen ${ms(c)} vs ${ms(d)}`);
      const how = `headless Chromium (Debian's, through playwright-core) on test/harness: the built renderer, the real bridge and services (automatic backups off), a journal written straight into SQLite; ${REPS} page loads per side, interleaved, after one untimed load each; medians; from the navigation's start to the element's entry into the DOM, recorded in the page by a mutation observer (Playwright's waitFor looks at growing intervals up to 500 ms apart, too coarse to time by)`;
      const lines: BenchLine[] = [
        {
          figure: `first render of the Journal, ${num(BIG)} entries`,
          project: ms(a),
          reference: `${num(SMALL)} entries: ${ms(b)}`,
          ratio: ratio(a, b),
          target: '<= 1.2x',
          met: a / b <= 1.2,
          note: `${how}: the Journal screen's newest row`,
        },
        {
          figure: `first render of the start screen (Orders), ${num(BIG)} entries`,
          project: ms(c),
          reference: `${num(SMALL)} entries: ${ms(d)}`,
          ratio: ratio(c, d),
          target: '<= 1.2x',
          met: c / d <= 1.2,
          note: `${how}: the Orders heading and the header's pending count (a journal query)`,
        },
      ];
      return lines;
    } finally {
      await big.close();
      await small.close();
      await closeSharedBrowser();
    }
  },
};
