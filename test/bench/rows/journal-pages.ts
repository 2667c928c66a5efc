// Row 6: pages of a large journal through the Journal store's search API (what the Journal
// screen asks for), against a raw indexed point query on the same file.

import Database from 'better-sqlite3';

import { openDatabase } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import type { JournalFilter } from '../../../main/store/journal/filter';
import { whereClause } from '../../../main/store/sqlite/journal-where';
import { journalFixture, separateJournalFixture } from '../lib/journal-fixture';
import type { BenchLine, BenchRow } from '../lib/report';
import { interleave, median, ms, now, ratio } from '../lib/stats';

const REPS = 5;
/** A page takes a fraction of a millisecond: the median of a rep's calls is steady at this many. */
const CALLS_PER_REP = 25;
const POINT_QUERIES = 2_000;
/** A count walks tens of thousands of entries: a few calls per rep are steady. */
const COUNTS_PER_REP = 5;
const PAGE = 100;
/** The small journal the large one's filtered last page is compared with: keyset pages are flat. */
const SMALL = 10_000;

export const journalPagesRow: BenchRow = {
  id: '6',
  title: 'journal pages',
  async run(context) {
    const fixture = journalFixture(context.journalEntries, context.log);
    const db = openDatabase(fixture.file);
    const raw = new Database(fixture.file, { readonly: true });
    try {
      const journal = new Journal(db);
      const filtered: JournalFilter = {
        status: 'approved',
        from: new Date(fixture.newest.getTime() - 30 * 86_400_000).toISOString(),
      };
      const lastOffset = (filter: JournalFilter) => lastPageOffset(journal, filter);
      const pages: { figure: string; filter: JournalFilter; offset: number }[] = [
        { figure: 'filtered (status + last 30 days), first page', filter: filtered, offset: 0 },
        {
          figure: 'filtered (status + last 30 days), last page',
          filter: filtered,
          offset: lastOffset(filtered),
        },
        { figure: 'unfiltered, first page', filter: {}, offset: 0 },
        { figure: 'unfiltered, last page', filter: {}, offset: lastOffset({}) },
      ];

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
      for (const page of pages) {
        const onePage = () => {
          const times: number[] = [];
          for (let i = 0; i < CALLS_PER_REP; i++) {
            const start = now();
            const result = journal.search(page.filter, page.offset, PAGE);
            times.push(now() - start);
            if (result.rows.length === 0) throw new Error(`${page.figure}: no rows`);
          }
          return Promise.resolve(median(times));
        };
        await onePage(); // warm-up, untimed
        await pointQuery();
        const runs = await interleave(REPS, onePage, pointQuery);
        const a = median(runs.project);
        const b = median(runs.reference);
        context.log(`row 6: ${page.figure}: ${ms(a)} (point query ${ms(b)})`);
        lines.push({
          figure: `journal of ${fixture.entries.toLocaleString('en-US')}: ${page.figure} (${PAGE} rows)`,
          project: ms(a),
          reference: `raw indexed point query: ${ms(b)}`,
          ratio: ratio(a, b),
          target: '<= 10 ms any page',
          met: a <= 10,
          ...(page === pages[0]
            ? {
                note: `Journal.search(filter, offset, ${PAGE}) on a temp SQLite file seeded with ${fixture.entries.toLocaleString('en-US')} entries over two years; the last page is the filter's oldest ${PAGE} entries; ${REPS} reps x ${CALLS_PER_REP} calls per page, interleaved with ${POINT_QUERIES} random \`SELECT * FROM journal WHERE id = ?\` (prepared once); medians`,
              }
            : {}),
        });
      }
      lines.push(await countAfterWrite(db, raw, fixture.entries, filtered, context.log));
      lines.push(await flatness(journal, fixture.entries, filtered, context.log));
      return lines;
    } finally {
      raw.close();
      db.close();
    }
  },
};

/**
 * Where the last page starts: the filter's oldest PAGE entries, a whole page. A page counted
 * from offset 0 in steps of PAGE would end with total % PAGE rows, which differs between two
 * journals (36 rows at 10,000 entries, 83 at 1,000,000): its time would follow that count,
 * not the journal's size.
 */
function lastPageOffset(journal: Journal, filter: JournalFilter): number {
  return Math.max(0, journal.search(filter, 0, 1).total - PAGE);
}

/**
 * The filtered first page as the Journal screen asks it after a write (the total counted
 * again: a fresh Journal keeps none), against the same COUNT as SQLite plans it by itself
 * (an equality before a range: every approved entry of the journal walked).
 */
async function countAfterWrite(
  db: Database.Database,
  raw: Database.Database,
  entries: number,
  filtered: JournalFilter,
  log: (message: string) => void,
): Promise<BenchLine> {
  const { where, params } = whereClause(filtered);
  const plain = raw.prepare(`SELECT COUNT(*) FROM journal ${where}`).pluck();
  const repeat = (call: () => unknown) => () => {
    const times: number[] = [];
    for (let i = 0; i < COUNTS_PER_REP; i++) {
      const start = now();
      call();
      times.push(now() - start);
    }
    return Promise.resolve(median(times));
  };
  const project = repeat(() => new Journal(db).search(filtered, 0, PAGE));
  const reference = repeat(() => plain.get(params));
  await project();
  await reference();
  const runs = await interleave(REPS, project, reference);
  const a = median(runs.project);
  const b = median(runs.reference);
  log(`row 6: count after a write ${ms(a)} (SQLite's own plan ${ms(b)})`);
  return {
    figure: `(extra) journal of ${entries.toLocaleString('en-US')}: filtered (status + last 30 days), first page after a write`,
    project: ms(a),
    reference: `the count as SQLite plans it: ${ms(b)}`,
    ratio: ratio(a, b),
    target: '',
    note: `Journal.search(filter, 0, ${PAGE}) by a fresh Journal (its count and page read again, as after any write; main/store/sqlite/journal-walks.ts chooses the count's index) against \`SELECT COUNT(*)\` with the same WHERE on a read-only connection; ${REPS} reps x ${COUNTS_PER_REP} calls, interleaved, medians`,
  };
}

/**
 * The filtered last page at SMALL entries and at the run's size, interleaved: a page read by its
 * keyset anchor costs the same whatever the journal's size.
 */
async function flatness(
  large: Journal,
  entries: number,
  filtered: JournalFilter,
  log: (message: string) => void,
): Promise<BenchLine> {
  const small = separateJournalFixture(SMALL, log);
  const smallDb = openDatabase(small.file);
  try {
    const smallJournal = new Journal(smallDb);
    // The same filter's shape on each journal: its own last 30 days.
    const smallFilter: JournalFilter = {
      status: 'approved',
      from: new Date(small.newest.getTime() - 30 * 86_400_000).toISOString(),
    };
    const lastPage = (journal: Journal, filter: JournalFilter) => {
      const offset = lastPageOffset(journal, filter);
      return () => {
        const times: number[] = [];
        for (let i = 0; i < CALLS_PER_REP; i++) {
          const start = now();
          journal.search(filter, offset, PAGE);
          times.push(now() - start);
        }
        return Promise.resolve(median(times));
      };
    };
    const onLarge = lastPage(large, filtered);
    const onSmall = lastPage(smallJournal, smallFilter);
    await onLarge();
    await onSmall();
    const runs = await interleave(REPS, onLarge, onSmall);
    const a = median(runs.project);
    const b = median(runs.reference);
    log(
      `row 6: filtered last page, ${entries.toLocaleString('en-US')} ${ms(a)} vs ${SMALL.toLocaleString('en-US')} ${ms(b)}`,
    );
    return {
      figure: `journal page, filtered, last page: ${SMALL.toLocaleString('en-US')} -> ${entries.toLocaleString('en-US')} entries`,
      project: `${entries.toLocaleString('en-US')}: ${ms(a)}`,
      reference: `${SMALL.toLocaleString('en-US')}: ${ms(b)}`,
      ratio: ratio(a, b),
      target: 'flat (<= 1.5x)',
      met: a / b <= 1.5,
      note: `the same call (status approved, the journal's own last 30 days, the last page: its oldest ${PAGE} entries) on a journal of ${SMALL.toLocaleString('en-US')} entries and on the run's (${entries.toLocaleString('en-US')}; --full: 1,000,000), each made the same way; ${REPS} reps x ${CALLS_PER_REP} calls, interleaved, medians`,
    };
  } finally {
    smallDb.close();
    small.close();
  }
}
