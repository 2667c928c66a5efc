// Row journal-find: the Journal screen's searches and totals on a large journal (the first page
// and its count, as a new search asks, and the totals beside the list), against a raw indexed
// point query on the same file, as row 6 measures pages. The fixture is row 6's; every tenth
// entry is given a card's last four here (a column no other row reads).

import Database from 'better-sqlite3';

import { openDatabase } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';
import type { JournalFilter } from '../../../main/store/journal/filter';
import { journalFixture } from '../lib/journal-fixture';
import type { BenchLine, BenchRow } from '../lib/report';
import { interleave, median, ms, now, ratio } from '../lib/stats';

const REPS = 5;
const POINT_QUERIES = 2_000;
const PAGE = 100;

interface Case {
  figure: string;
  filter: JournalFilter;
  /** totals: the totals beside the list; page: a new search's first page and its count. */
  what: 'page' | 'totals';
  targetMs: number;
}

const CASES: Case[] = [
  { figure: 'amount exactly 14.25', filter: { amount: '14.25' }, what: 'page', targetMs: 10 },
  {
    figure: 'amount from 500 to 501',
    filter: { amountMin: '500', amountMax: '501' },
    what: 'page',
    targetMs: 10,
  },
  { figure: "card's last four", filter: { cardLastFour: '1230' }, what: 'page', targetMs: 10 },
  { figure: 'start of an orderid', filter: { orderRef: '1000123' }, what: 'page', targetMs: 10 },
  // No index serves "part of": every e-mail is read.
  { figure: 'part of an e-mail', filter: { email: 'customer12' }, what: 'page', targetMs: 50 },
  { figure: 'totals, unfiltered', filter: {}, what: 'totals', targetMs: 50 },
  {
    figure: 'totals, part of an e-mail',
    filter: { email: 'customer12' },
    what: 'totals',
    targetMs: 50,
  },
];

export const journalFindRow: BenchRow = {
  id: 'journal-find',
  title: 'journal searches and totals',
  async run(context) {
    const fixture = journalFixture(context.journalEntries, context.log);
    const db = openDatabase(fixture.file);
    const raw = new Database(fixture.file, { readonly: true });
    try {
      db.exec(
        `UPDATE journal SET card_last_four = printf('%04d', id % 10000)
          WHERE id % 10 = 0 AND card_last_four IS NULL`,
      );
      const point = raw.prepare('SELECT * FROM journal WHERE id = ?').safeIntegers(true);
      let seed = 1;
      const pointQuery = () => {
        const start = now();
        for (let i = 0; i < POINT_QUERIES; i++) {
          seed = (seed * 48271) % 2147483647;
          point.get(1 + (seed % fixture.entries));
        }
        return Promise.resolve((now() - start) / POINT_QUERIES);
      };
      const lines: BenchLine[] = [];
      for (const c of CASES) {
        // A new Journal each time: a new search counts, as the screen's first page of it does.
        const once = () => {
          const start = now();
          if (c.what === 'page') new Journal(db).search(c.filter, 0, PAGE);
          else new Journal(db).totals(c.filter);
          return Promise.resolve(now() - start);
        };
        await once(); // warm-up, untimed
        const runs = await interleave(REPS, once, pointQuery);
        const a = median(runs.project);
        const b = median(runs.reference);
        context.log(`journal-find: ${c.figure}: ${ms(a)} (point query ${ms(b)})`);
        lines.push({
          figure: `journal of ${fixture.entries.toLocaleString('en-US')}: ${c.figure}${c.what === 'page' ? ` (first ${PAGE} and the count)` : ''}`,
          project: ms(a),
          reference: `raw indexed point query: ${ms(b)}`,
          ratio: ratio(a, b),
          target: `<= ${c.targetMs} ms`,
          met: a <= c.targetMs,
          ...(c === CASES[0]
            ? {
                note: `Journal.search(filter, 0, ${PAGE}) and Journal.totals(filter) on row 6's journal, a new Journal per call (nothing counted before); ${REPS} reps interleaved with ${POINT_QUERIES} random \`SELECT * FROM journal WHERE id = ?\`; medians`,
              }
            : {}),
        });
      }
      lines.push(...(await offTheThread(db, fixture.entries, context.log)));
      return lines;
    } finally {
      raw.close();
      db.close();
    }
  },
};

interface Timed {
  time: number;
  stall: number;
}

/** How long `read` took, and the longest the main thread went without a 1 ms timer's turn. */
async function timed(read: () => unknown): Promise<Timed> {
  let last = now();
  let stall = 0;
  const ticks = setInterval(() => {
    const t = now();
    stall = Math.max(stall, t - last);
    last = t;
  }, 1);
  const start = now();
  await read();
  const time = now() - start;
  stall = Math.max(stall, now() - last);
  clearInterval(ticks);
  return { time, stall };
}

/**
 * The Journal screen's reads as it asks them, through the journal port, whose workers read a
 * large journal (journal-reader.ts), against the same reads on the main thread: the time, and
 * the longest the main thread went without a turn. One profile's totals (the fixture's one
 * profile: every row read); a new search of a part of an e-mail (a filter not asked before
 * each time: its count reads every row); a page of the unfiltered list whose count is known
 * (what the worker adds to a page the main thread reads at once).
 */
async function offTheThread(
  db: ReturnType<typeof openDatabase>,
  entries: number,
  log: (line: string) => void,
): Promise<BenchLine[]> {
  const profileId = db.prepare('SELECT profile_id FROM journal LIMIT 1').pluck().get() as string;
  const port = new SqliteJournalPort(db);
  const kept = new Journal(db);
  const n = entries.toLocaleString('en-US');
  const cases = [
    {
      figure: "one profile's totals (all of it)",
      port: () => port.totals({ profileId }),
      main: () => new Journal(db).totals({ profileId }),
    },
    {
      figure: 'a new search of a part of an e-mail (first 100 and the count)',
      port: (rep: number) => port.search({ email: `customer1${rep}` }, 0, PAGE),
      main: (rep: number) => new Journal(db).search({ email: `customer1${rep}` }, 0, PAGE),
    },
    {
      figure: 'a page of the unfiltered list, its count known',
      port: () => port.search({}, 0, PAGE),
      main: () => kept.search({}, 0, PAGE),
    },
  ];
  try {
    await port.totals({ profileId }); // both workers started, untimed
    await port.search({}, 0, PAGE);
    kept.search({}, 0, PAGE);
    const lines: BenchLine[] = [];
    for (const c of cases) {
      let rep = 0;
      let repMain = 0;
      const runs = await interleave(
        3,
        () => timed(() => c.port(rep++)),
        () => timed(() => c.main(repMain++)),
        { figureOf: (r) => r.time },
      );
      const pick = (side: Timed[], key: keyof Timed) => median(side.map((r) => r[key]));
      log(`journal-find: ${c.figure} via the port ${ms(pick(runs.project, 'time'))}`);
      lines.push({
        figure: `(extra) journal of ${n}: ${c.figure} as the screen asks`,
        project: `${ms(pick(runs.project, 'time'))}; the main thread's longest wait ${ms(pick(runs.project, 'stall'))}`,
        reference: `read on the main thread: ${ms(pick(runs.reference, 'time'))}, all of it a wait`,
        ratio: ratio(pick(runs.project, 'time'), pick(runs.reference, 'time')),
        target: '',
        ...(c === cases[0]
          ? {
              note: `SqliteJournalPort's totals and search (workers read a journal of 20,000 entries or more, journal-reader.ts) against Journal's on the main thread, 3 reps interleaved, medians; the wait is the longest gap between a 1 ms timer's turns`,
            }
          : {}),
      });
    }
    return lines;
  } finally {
    await port.close();
  }
}
