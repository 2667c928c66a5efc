// `npm run bench`: measures every figure of the table of targets against its reference in the same
// run (interleaved repetitions, medians) and prints project, reference, ratio and target,
// marking the targets missed. A measurement, not a test: it exits 0 when targets are missed.
//
//   npm run bench                         short run (journal of 100,000 entries)
//   npm run bench -- --full               the 1,000,000-entry journal
//   npm run bench -- --only 1,6           some rows (the table's numbers; x = extras)
//   npm run bench -- --only reconcile     the reconciliation of 10,000 entries
//   npm run bench -- --write docs/performance.md

import { cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { closeJournalFixture } from './lib/journal-fixture';
import { markdownTable, notes, textTable, type BenchLine, type BenchRow } from './lib/report';
import { batchRow } from './rows/batch';
import { csvExportRow } from './rows/csv-export';
import { firstRenderRow } from './rows/first-render';
import { firstStartRow } from './rows/first-start';
import { journalPagesRow } from './rows/journal-pages';
import { keychainRow } from './rows/keychain';
import { keysRow } from './rows/keys';
import { reconcileRow } from './rows/reconcile';
import { refundsRow } from './rows/refunds';
import { rendererSizeRow } from './rows/renderer-size';
// Reports: the daily close (issue 26).
import { reportsRow } from './rows/reports';
import { journalFindRow } from './rows/journal-find';
import { roundTripRow } from './rows/round-trip';
import { serverStatusRow } from './rows/server-status';
import { signingRow } from './rows/signing';

const ROWS: readonly BenchRow[] = [
  serverStatusRow,
  refundsRow,
  keychainRow,
  batchRow,
  signingRow,
  roundTripRow,
  journalPagesRow,
  csvExportRow,
  firstRenderRow,
  rendererSizeRow,
  firstStartRow,
  keysRow,
  // Reports: the daily close (issue 26).
  reportsRow,
  // The Journal's searches and totals (issue 26).
  journalFindRow,
  reconcileRow,
];

const { values } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    only: { type: 'string' },
    write: { type: 'string' },
  },
});
const full = values.full ?? false;
const only = values.only?.split(',').map((s) => s.trim());
const journalEntries = full ? 1_000_000 : 100_000;

const machine = `${cpus().length} cores, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, ${process.platform} ${process.arch}`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const loadBefore = load();
const oneMinute = () => loadavg()[0]?.toFixed(2) ?? '?';

// Every fixture of this run (journals, data folders, caches, children's) in a folder of its
// own: os.tmpdir() reads TMPDIR at each call, and children inherit it. Two runs side by side
// never see, nor delete, each other's files.
const runDir = mkdtempSync(join(tmpdir(), 'paydesk-bench-run-'));
process.env.TMPDIR = runDir;
process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
const started = performance.now();
const log = (message: string) =>
  process.stderr.write(
    `[bench ${((performance.now() - started) / 1000).toFixed(0)} s] ${message}\n`,
  );

log(
  `${machine}; journal of ${journalEntries.toLocaleString('en-US')} entries; load average ${loadBefore}`,
);
const lines: BenchLine[] = [];
for (const row of ROWS) {
  if (only && !row.id.split(',').some((id) => only.includes(id))) continue;
  const rowLoad = oneMinute();
  log(`row ${row.id}: ${row.title}; load average ${load()}`);
  const at = lines.length;
  try {
    lines.push(...(await row.run({ full, journalEntries, log })));
  } catch (error) {
    // One broken row must not hide the others' figures.
    lines.push({
      figure: row.title,
      project: 'failed',
      reference: '',
      ratio: '',
      target: '',
      note: `the row failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    });
  }
  // The 1-minute load average as the row began and as it ended: a figure measured at load 8
  // is not the figure of a quiet machine.
  const loadOfRow = `${rowLoad} -> ${oneMinute()}`;
  for (const line of lines.slice(at)) line.load = loadOfRow;
}
closeJournalFixture();
const seconds = (performance.now() - started) / 1000;
const loadAfter = load();
const missed = lines.filter((l) => l.met === false).length;
const summary = `${missed} of ${lines.filter((l) => l.met !== undefined).length} targets missed; ${seconds.toFixed(0)} s; load average before ${loadBefore}, after ${loadAfter} (1, 5, 15 min)`;

console.log('');
console.log(textTable(lines));
console.log('');
for (const note of notes(lines)) console.log(`- ${note}`);
console.log('');
console.log(
  `${machine}. Journal of ${journalEntries.toLocaleString('en-US')} entries${full ? ' (--full)' : ' (--full for 1,000,000)'}.`,
);
console.log(summary);

if (values.write) {
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const markdown = [
    '# Performance',
    '',
    'Measured by `npm run bench` (test/bench/run.ts): every figure with a target, against a',
    'reference measured in the same run, interleaved (project, reference, project, ...), several',
    'repetitions, medians. Ratios are project / reference. Regenerate with',
    `\`npm run bench -- ${full ? '--full ' : ''}--write docs/performance.md\`: the table, its run and "How each figure is`,
    'measured" are written by the bench; "What limits each figure" is kept by hand. History (what a',
    'change gained, what was tried) is in the commit messages, not here.',
    '',
    `- Date: ${date}`,
    `- Machine: ${machine}`,
    `- Journal: ${journalEntries.toLocaleString('en-US')} entries${full ? '' : ' (the default; `--full` uses 1,000,000)'}`,
    `- ${summary}`,
    '',
    markdownTable(lines),
    '',
    ...handKeptSections(values.write),
    '## How each figure is measured',
    '',
    ...notes(lines).map((n) => `- ${n}`),
    '',
  ].join('\n');
  writeFileSync(values.write, markdown);
  console.log(`Wrote ${values.write}.`);
}

/**
 * The sections of the file kept by hand ("What limits each figure"), each ending in a blank line.
 * The table and "How each figure is measured" are this run's; the run it replaces is not kept:
 * the file describes the code as it is, and a change is compared in one run against the code
 * before it.
 */
function handKeptSections(file: string): string[] {
  if (!existsSync(file)) return [];
  const [, ...sections] = readFileSync(file, 'utf8').split(/^(?=## )/m);
  return sections
    .filter((section) => !section.startsWith('## How each figure is measured'))
    .map((section) => `${section.trimEnd()}\n`);
}
