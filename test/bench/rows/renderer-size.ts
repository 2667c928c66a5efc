// Row 8: the JavaScript the renderer's first screen loads (index.html's module script and its
// modulepreloads), gzipped, against React + react-dom + react-query + react-virtual alone,
// bundled by Vite the same way from a tiny entry that uses each of them.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { build, type Rollup } from 'vite';

import type { BenchRow } from '../lib/report';
import { kib, ratio } from '../lib/stats';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RENDERER = join(ROOT, 'out/renderer');
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

/** Gzipped bytes of the JS index.html loads before anything else, and the files. */
function initialRendererJs(): { bytes: number; files: string[] } {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.js)"/g),
    ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ].map((m) => m[1] ?? '');
  const bytes = files.reduce((n, f) => n + gzipSize(readFileSync(join(RENDERER, f))), 0);
  return { bytes, files };
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
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
    return outputs
      .flatMap((o) => o.output)
      .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
      .reduce((n, c) => n + gzipSize(c.code), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const rendererSizeRow: BenchRow = {
  id: '8',
  title: 'initial renderer JS',
  async run(context) {
    let built = 'the existing out/renderer';
    if (!existsSync(join(RENDERER, 'index.html'))) {
      context.log('row 8: building the renderer (out/renderer is missing)');
      await build({ configFile: join(ROOT, 'vite.renderer.config.ts'), logLevel: 'warn' });
      built = 'out/renderer, built by the bench';
    }
    const app = initialRendererJs();
    const reference = await referenceBundle();
    context.log(`row 8: renderer ${kib(app.bytes)} gzip, libraries alone ${kib(reference)}`);
    return [
      {
        figure: 'initial renderer JS (gzip)',
        project: `${kib(app.bytes)} in ${app.files.length} file(s)`,
        reference: `React + react-query + react-virtual alone: ${kib(reference)}`,
        ratio: ratio(app.bytes, reference),
        target: '<= 100 KiB gzip',
        met: app.bytes <= 100 * 1024,
        note: `${built}: index.html's module script and modulepreloads, gzipped (zlib default level); the reference is a tiny entry using react-dom/client, useQuery and useVirtualizer, bundled by Vite's build API for the same target; sizes are deterministic, one measurement`,
      },
    ];
  },
};
