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
      lines.push(await profileTotalsOffTheThread(db, fixture.entries, context.log));
      return lines;
    } finally {
      raw.close();
      db.close();
    }
  },
};

/**
 * The totals of the fixture's one profile (its whole journal: every row read) as the screen asks
 * them, through the journal port, whose worker reads them (journal-reader.ts), against the same
 * read on the main thread: the time, and the longest the main thread went without a turn.
 */
async function profileTotalsOffTheThread(
  db: ReturnType<typeof openDatabase>,
  entries: number,
  log: (line: string) => void,
): Promise<BenchLine> {
  const profileId = db.prepare('SELECT profile_id FROM journal LIMIT 1').pluck().get() as string;
  const filter = { profileId };
  const port = new SqliteJournalPort(db);
  const timed = async (read: () => unknown) => {
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
  };
  try {
    await port.totals(filter); // the worker started, untimed
    const runs = await interleave(
      3,
      () => timed(() => port.totals(filter)),
      () => timed(() => new Journal(db).totals(filter)),
      { figureOf: (r) => r.time },
    );
    const pick = (side: { time: number; stall: number }[], key: 'time' | 'stall') =>
      median(side.map((r) => r[key]));
    const n = entries.toLocaleString('en-US');
    log(`journal-find: one profile's totals via the port ${ms(pick(runs.project, 'time'))}`);
    return {
      figure: `(extra) journal of ${n}: one profile's totals (all of it) as the screen asks them`,
      project: `${ms(pick(runs.project, 'time'))}; the main thread's longest wait ${ms(pick(runs.project, 'stall'))}`,
      reference: `read on the main thread: ${ms(pick(runs.reference, 'time'))}, all of it a wait`,
      ratio: ratio(pick(runs.project, 'time'), pick(runs.reference, 'time')),
      target: '',
      note: `SqliteJournalPort.totals({ profileId }) (a worker reads a journal of 20,000 entries or more, journal-reader.ts) against Journal.totals on the main thread, 3 reps interleaved, medians; the wait is the longest gap between a 1 ms timer's turns`,
    };
  } finally {
    await port.close();
  }
}
