// Row 8: the JavaScript each screen needs before it paints: the entry (index.html's module
// script and its modulepreloads) plus the screen's own chunk and every chunk that chunk imports
// statically (what Vite preloads with it), gzipped, screen by screen, against React + react-dom
// + react-query + react-virtual alone, bundled by Vite the same way from a tiny entry that uses
// each of them. The renderer is built in memory from the sources with the app's own Vite config,
// so the figure is the code as it is, never a stale out/renderer.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

import { build, type Rollup } from 'vite';

import type { BenchRow } from '../lib/report';
import { kib, ratio } from '../lib/stats';

const ROOT = new URL('../../../', import.meta.url).pathname;
const BUDGET = 100 * 1024;
const gzipSize = (code: string | Uint8Array) => gzipSync(code).length;

const REFERENCE_ENTRY = `
import { createElement as h, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';

function App() {
  const scroller = useRef(null);
  const query = useQuery({ queryKey: ['n'], queryFn: async () => 1 });
  const rows = useVirtualizer({ count: 1000, getScrollElement: () => scroller.current, estimateSize: () => 28 });
  return h('div', { ref: scroller }, String(query.data),
    rows.getVirtualItems().map((row) => h('div', { key: row.key }, row.index)));
}
createRoot(document.getElementById('root')).render(
  h(QueryClientProvider, { client: new QueryClient() }, h(App)));
`;

export interface ScreenSize {
  /** The screen's module, e.g. "journal/JournalScreen". */
  screen: string;
  bytes: number;
  files: string[];
}

function chunksOf(result: Awaited<ReturnType<typeof build>>): Rollup.OutputChunk[] {
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs
    .flatMap((o) => o.output)
    .filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
}

/** A chunk and every chunk it imports statically, transitively: what loads with it. */
function closure(start: Rollup.OutputChunk, byName: Map<string, Rollup.OutputChunk>): Set<string> {
  const seen = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const name of chunk.imports) {
      const next = byName.get(name);
      if (next) visit(next);
    }
  };
  visit(start);
  return seen;
}

/** Gzipped initial JS of every screen (a lazy chunk of renderer/src/screens/), heaviest first. */
export async function screenSizes(): Promise<ScreenSize[]> {
  const result = await build({
    configFile: join(ROOT, 'vite.renderer.config.ts'),
    logLevel: 'silent',
    build: { write: false },
  });
  const chunks = chunksOf(result);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const size = new Map(chunks.map((c) => [c.fileName, gzipSize(c.code)]));
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('the renderer build has no entry chunk');
  const initial = closure(entry, byName);
  const screensDir = join(ROOT, 'renderer/src/screens');
  return chunks
    .filter((c) => c.isDynamicEntry && c.facadeModuleId?.startsWith(screensDir))
    .filter((c) => /Screen\.tsx$/.test(c.facadeModuleId ?? ''))
    .map((chunk) => {
      const files = [...new Set([...initial, ...closure(chunk, byName)])];
      const bytes = files.reduce((n, f) => n + (size.get(f) ?? 0), 0);
      const screen = relative(screensDir, chunk.facadeModuleId ?? '').replace(/\.tsx$/, '');
      return { screen, bytes, files };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

async function referenceBundle(): Promise<number> {
  // Inside the project, so the imports resolve to its node_modules.
  const dir = join(ROOT, 'out/bench-reference');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.js');
  writeFileSync(entry, REFERENCE_ENTRY);
  try {
    const result = await build({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      mode: 'production',
      build: {
        write: false,
        target: 'chrome140',
        modulePreload: { polyfill: false },
        rollupOptions: { input: entry },
      },
    });
    return chunksOf(result).reduce((n, c) => n + gzipSize(c.code), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const short = (s: ScreenSize) =>
  `${s.screen
    .split('/')
    .pop()
    ?.replace(/Screen$/, '')} ${kib(s.bytes)}`;

export const rendererSizeRow: BenchRow = {
  id: '8',
  title: 'initial JS per screen',
  async run(context) {
    const screens = await screenSizes();
    const reference = await referenceBundle();
    for (const s of screens)
      context.log(`row 8: ${s.screen} ${kib(s.bytes)} in ${s.files.length} file(s)`);
    const heaviest = screens[0];
    if (!heaviest) throw new Error('the renderer build has no screen chunks');
    const over = screens.filter((s) => s.bytes > BUDGET);
    return [
      {
        figure: "initial JS per screen (entry + the screen's chunk + what it preloads), gzip",
        project: `${screens.slice(0, 5).map(short).join(', ')}${over.length > 0 ? `; over: ${over.map(short).join(', ')}` : ''}`,
        reference: `React + react-query + react-virtual alone: ${kib(reference)}`,
        ratio: ratio(heaviest.bytes, reference),
        target: 'every screen <= 100 KiB',
        met: over.length === 0,
        note: `the renderer built in memory by vite.renderer.config.ts from the sources; per screen (each lazy chunk of renderer/src/screens/): the entry chunk and its static imports (index.html's module script and modulepreloads) plus the screen's chunk and its static imports (what Vite preloads with it), each file gzipped (zlib default level) once, summed; CSS not counted; chunks a screen loads later with import() not counted. The ratio is the heaviest screen's. Every screen: ${screens.map(short).join(', ')}. The reference is a tiny entry using react-dom/client, useQuery and useVirtualizer, bundled by Vite's build API for the same target; sizes are deterministic, one measurement`,
      },
    ];
  },
};
