// Row 7, in a fresh process: the journal's CSV export as the app runs it, or a raw read of every
// row. The export goes as the save handler (main/handlers.ts exportCsv) takes it: what the
// export starts ahead (its worker thread) starts when it is asked for, the save dialog stands
// open DIALOG_MS (a person choosing a file takes seconds), then JournalService's chunks are
// written to the file as they come. The time is what the person then waits for: from the file
// chosen to the file written, without the dialog; the memory growth and the stalls are from the
// moment the export is asked for, the dialog's worker start included. Reports also, apart, the
// time spent making the chunks (reading and formatting: inside the source's next()) and the time
// left, waiting for the file's writes, and the process's CPU while the dialog is open.
//
//   csv-export.ts <database> export|raw <out-file>

import { statSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { writeContent } from '../../../main/files';
import { JournalService } from '../../../main/services/journal';
import { openDatabase } from '../../../main/store/sqlite/database';
import { prepareExportWorker } from '../../../main/store/sqlite/journal-export-worker-entry';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';

const [file = '', mode = '', out = ''] = process.argv.slice(2);
const db = openDatabase(file);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the save dialog stands open (both modes wait it: the raw read simply waits). */
const DIALOG_MS = 1_000;

// Samplers: RSS and heap every 10 ms (they see only what happens while the loop turns), the
// kernel's RSS high-water mark (sees everything), and how late each 10 ms tick comes.
const delay = monitorEventLoopDelay({ resolution: 10 });
let peakRss = 0;
let peakHeap = 0;
let worstLateMs = 0;
let last = performance.now();
const sampler = setInterval(() => {
  const t = performance.now();
  worstLateMs = Math.max(worstLateMs, t - last - 10);
  last = t;
  const memory = process.memoryUsage();
  peakRss = Math.max(peakRss, memory.rss);
  peakHeap = Math.max(peakHeap, memory.heapUsed);
}, 10);

// The export's worker thread runs, in the app, from a file built beside it; from the sources
// it is bundled first, once per process: here, before anything is timed.
await prepareExportWorker();
await pause(100);
const before = process.memoryUsage();
const maxRssBefore = process.resourceUsage().maxRSS * 1024;
peakRss = before.rss;
peakHeap = before.heapUsed;
worstLateMs = 0;
delay.enable();

// The export is asked for: the save handler prepares it, and the dialog opens.
const journal = new JournalService(new SqliteJournalPort(db));
const dialogCpu = process.cpuUsage();
const prepared = mode === 'export' ? journal.prepareCsv() : undefined;
await pause(DIALOG_MS);
const used = process.cpuUsage(dialogCpu);
const dialogCpuMs = (used.user + used.system) / 1000;

// The file is chosen.
const start = performance.now();
let rows = 0;
let bytes = 0;
let formatMs = 0;
let formatCpuMs = 0;
if (mode === 'export') {
  // As the save handler runs it: chunks from JournalService written to the file as they come.
  let progress = { done: 0, total: 0 };
  const source = journal.csvChunks({}, (p) => (progress = p), undefined, prepared);
  await writeContent(out, async function* () {
    for (;;) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const next = await source.next();
      const used = process.cpuUsage(cpu);
      formatCpuMs += (used.user + used.system) / 1000;
      formatMs += performance.now() - t;
      if (next.done) return;
      yield next.value;
    }
  });
  prepared?.end(); // the dialog has closed
  bytes = statSync(out).size;
  rows = progress.done;
} else if (mode === 'raw') {
  for (const row of db
    .prepare('SELECT * FROM journal ORDER BY id DESC')
    .raw()
    .safeIntegers(true)
    .iterate()) {
    rows += (row as unknown[]).length > 0 ? 1 : 0;
  }
} else {
  throw new Error(`unknown mode ${mode}: export or raw`);
}
const elapsedMs = performance.now() - start;
await pause(30); // the late tick after a blocking stretch lands here
delay.disable();
clearInterval(sampler);

const highWater = Math.max(process.resourceUsage().maxRSS * 1024, peakRss);
console.log(
  JSON.stringify({
    elapsedMs,
    formatMs,
    formatCpuMs,
    dialogCpuMs,
    rows,
    bytes,
    rssGrowth: highWater - before.rss,
    rssHighWaterWasAlreadyAbove: maxRssBefore > before.rss,
    heapGrowth: peakHeap - before.heapUsed,
    stallMs: Math.max(worstLateMs, delay.max / 1e6 - 10),
  }),
);
db.close();
