// The browser end-to-end harness: the built renderer served on loopback (with the app's own
// CSP and file rules), Debian's Chromium driven by playwright-core, window.paydesk built by the
// preload's own factory, and every call routed through page.exposeBinding into the real
// bridge.handle with the real services, a real SQLite file, the real embedded sandbox and the
// in-memory keychain. Only Electron's own plumbing is outside this loop.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';

import { eventChannelOf } from '../../common/contract';
import { createBridge, type Bridge } from '../../main/bridge';
import { contentText } from '../../main/files';
import { createHandlers, NO_FOLDER_PICKER, type DesktopDeps } from '../../main/handlers';
import { APP_ORIGIN, createAppRequestHandler } from '../../main/protocol';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices, type StartOptions } from '../../main/services/app';
import { ServiceError } from '../../main/services/errors';
import { journalRowView } from '../../main/services/journal';
import { SCREENSHOT_ZONE, type FixedClock } from './fixed-clock';

const ROOT = resolve(import.meta.dirname, '..', '..');
const RENDERER = join(ROOT, 'out', 'renderer');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Builds the renderer when out/renderer is missing (npm test builds it first). */
export async function ensureRendererBuilt(): Promise<void> {
  if (existsSync(join(RENDERER, 'index.html'))) return;
  await build({ configFile: join(ROOT, 'vite.renderer.config.ts'), logLevel: 'warn' });
}

let pageBridgeCode: Promise<string> | undefined;
/** The init script: test/harness/page-bridge.ts bundled with the preload's factory. */
function pageBridge(): Promise<string> {
  pageBridgeCode ??= build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: join(import.meta.dirname, 'page-bridge.ts'),
        formats: ['iife'],
        name: 'PaydeskHarnessBridge',
      },
    },
  }).then((output) => {
    const outputs = Array.isArray(output) ? output : [output];
    for (const o of outputs) {
      if ('output' in o) {
        const chunk = o.output.find((c) => c.type === 'chunk');
        if (chunk && chunk.type === 'chunk') return chunk.code;
      }
    }
    throw new Error('The harness page bridge did not build.');
  });
  return pageBridgeCode;
}

/** Serves out/renderer with main/protocol.ts's own handler: same paths, same CSP headers. */
async function serveRenderer(): Promise<{ origin: string; close(): Promise<void> }> {
  const handle = createAppRequestHandler(RENDERER);
  const server = http.createServer((req, res) => {
    // The handler serves app://paydesk/...; the page itself lives on this loopback origin.
    const url = `${APP_ORIGIN}${req.url ?? '/'}`;
    handle(new Request(url, { method: req.method ?? 'GET' }))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface SavedFile {
  name: string;
  content: string;
  kind: 'pem' | 'csv' | 'sql' | 'json' | 'pdf';
}

export interface Harness {
  page: Page;
  services: PaydeskServices;
  bridge: Bridge;
  secrets: MemorySecretStore;
  dataDir: string;
  /** Files the app "saved" through its save dialog (the harness answers the dialog). */
  saved: SavedFile[];
  clipboard: string[];
  /**
   * What the system's folder picker answers (Settings -> Backups' Choose folder…): a folder, or
   * null for Cancel. Unset (npm run preview), there is no picker, as outside the desktop app.
   */
  folderPicker: { answer?: string | null; asked: string[] };
  /** Resolves once a restart asked by Settings -> Team journal is done (at once when none was). */
  restarted(): Promise<void>;
  /** Opens the app (index.html) in the page. */
  open(hash?: string): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  headless?: boolean;
  viewport?: { width: number; height: number };
  services?: Partial<StartOptions>;
  /** Reuse a data folder (a second start); a fresh temp folder otherwise. */
  dataDir?: string;
  secrets?: MemorySecretStore;
  /**
   * Screenshots only (fixed-clock.ts): the page gets the same fixed time and zone as the
   * process, and each page opened moves the clock one minute on.
   */
  clock?: FixedClock;
  /** Settings -> Updates, made for the services just started; off when absent. */
  updates?: (services: PaydeskServices) => NonNullable<DesktopDeps['updates']>;
}

let fixedInputs: (() => HarnessOptions) | undefined;
let fixedDirs: { root: string; made: number } | undefined;

/**
 * With fixed inputs: Chromium drawing the same pixels every time (no partial raster, no LCD text,
 * one colour profile), so a redraw of part of a page draws it as a full one would.
 */
const SAME_PIXELS_ARGS = [
  '--disable-partial-raster',
  '--disable-lcd-text',
  '--force-color-profile=srgb',
  '--font-render-hinting=none',
  '--disable-skia-runtime-opts',
];

let sharedBrowser: Promise<Browser> | undefined;
async function browser(headless: boolean): Promise<Browser> {
  if (!headless)
    return chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: false,
      args: CHROMIUM_ARGS,
    });
  // One left open by an earlier file that has since gone (crashed, killed) is launched again.
  if (sharedBrowser && !(await sharedBrowser.catch(() => undefined))?.isConnected())
    sharedBrowser = undefined;
  sharedBrowser ??= chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: fixedInputs ? [...CHROMIUM_ARGS, ...SAME_PIXELS_ARGS] : CHROMIUM_ARGS,
  });
  return sharedBrowser;
}

/**
 * Done with the headless browser. In a test worker that several files share
 * (PAYDESK_SHARED_WORKER, set by vitest.config.ts) it stays open for the next file, whose pages
 * get a context of their own, and Playwright closes it when the worker exits: one Chromium per
 * worker rather than one per file. Anywhere else it is closed now.
 */
export async function closeSharedBrowser(): Promise<void> {
  if (process.env.PAYDESK_SHARED_WORKER === '1') return;
  if (sharedBrowser) await (await sharedBrowser).close();
  sharedBrowser = undefined;
}

/**
 * Screenshots only: every harness started from now on (the shots' own too) takes these options
 * first (a fixed clock, fixed action ids, port and key), and its data folder is the next one
 * under `dataRoot` (Team journal shows the folder), so a second run draws the same.
 */
export function useFixedInputs(inputs: () => HarnessOptions, dataRoot: string): void {
  fixedInputs = inputs;
  fixedDirs = { root: dataRoot, made: 0 };
}

/** A fresh data folder: a temp one, or with fixed inputs the next numbered one. */
export function newDataDir(prefix: string): string {
  if (!fixedDirs) return mkdtempSync(join(tmpdir(), prefix));
  const dir = join(fixedDirs.root, `${prefix}${++fixedDirs.made}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function startHarness(given: HarnessOptions = {}): Promise<Harness> {
  const fixed = fixedInputs?.() ?? {};
  const options: HarnessOptions = {
    ...fixed,
    ...given,
    services: { ...fixed.services, ...given.services },
  };
  await ensureRendererBuilt();
  const ownsDir = !options.dataDir;
  const dataDir = options.dataDir ?? newDataDir('paydesk-e2e-');
  const secrets = options.secrets ?? new MemorySecretStore();
  const renderer = await serveRenderer();
  // Events need the page, which opens after the services start.
  const pageRef: { current?: Page } = {};
  const startOptions: StartOptions = {
    dataDir,
    secrets,
    operator: 'e2e-clerk',
    sandboxDelayMs: 400,
    wait: { delayAfter: () => 200, giveUpAfterMs: 60_000 },
    onEntryChanged: (entry) => {
      void pageRef.current
        ?.evaluate(([channel, payload]) => window.__paydeskEmit(channel, payload), [
          eventChannelOf('journalChanged'),
          journalRowView(entry),
        ] as const)
        .catch(() => undefined);
    },
    ...options.services,
  };
  const saved: SavedFile[] = [];
  const clipboard: string[] = [];
  const folderPicker: Harness['folderPicker'] = { asked: [] };
  // Switching journals (Settings -> Team journal) restarts the services, as the desktop app
  // relaunches: the old ones stop, new ones start on the same folder and keychain, and the page
  // loads again. The binding below always calls the current bridge.
  const current: { services: PaydeskServices; bridge: Bridge; restarting?: Promise<void> } = {
    services: await PaydeskServices.start(startOptions),
    bridge: undefined as unknown as Bridge,
  };
  const bridgeFor = (services: PaydeskServices) =>
    createBridge(
      createHandlers(services, {
        ...(options.updates ? { updates: options.updates(services) } : {}),
        version: 'harness',
        operator: 'e2e-clerk',
        saveFile: async (name, content, kind) => {
          saved.push({ name, content: await contentText(content), kind });
          return { saved: true, path: join(dataDir, name) };
        },
        copyText: (text) => {
          clipboard.push(text);
        },
        chooseFolder: (current) => {
          folderPicker.asked.push(current);
          if (folderPicker.answer === undefined)
            throw new ServiceError('INPUT', NO_FOLDER_PICKER, 'folder');
          return Promise.resolve(folderPicker.answer ?? undefined);
        },
        // The reconciliation's page printed by the harness's own Chromium, as Electron's would.
        printPdf: async (html) => {
          const printing = await pageRef.current!.context().newPage();
          try {
            await printing.setContent(html);
            return await printing.pdf({ format: 'A4', printBackground: true });
          } finally {
            await printing.close();
          }
        },
        exportProgress: (progress) => {
          void pageRef.current
            ?.evaluate(([channel, payload]) => window.__paydeskEmit(channel, payload), [
              eventChannelOf('journalExportProgress'),
              progress,
            ] as const)
            .catch(() => undefined);
        },
        restartSoon: () => {
          current.restarting = (async () => {
            await new Promise((r) => setTimeout(r, 300)); // the screen shows "restarts now"
            await current.services.close();
            current.services = await PaydeskServices.start(startOptions);
            current.bridge = bridgeFor(current.services);
            await pageRef.current?.reload();
          })();
        },
      }),
      {
        isTrustedSender: (sender) =>
          sender.isTopFrame && new URL(sender.url).origin === renderer.origin,
      },
    );
  current.bridge = bridgeFor(current.services);

  const headless = options.headless ?? true;
  const b = await browser(headless);
  const context = await b.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.clock ? { timezoneId: SCREENSHOT_ZONE } : {}),
  });
  const page = await context.newPage();
  pageRef.current = page;
  await options.clock?.attach(page);
  await page.exposeBinding('__paydeskInvoke', (source, channel: string, payload: unknown) =>
    current.bridge.handle(
      channel,
      { url: source.frame.url(), isTopFrame: source.frame.parentFrame() === null },
      payload,
    ),
  );
  await page.addInitScript({ content: await pageBridge() });

  return {
    page,
    get services() {
      return current.services;
    },
    get bridge() {
      return current.bridge;
    },
    restarted: () => current.restarting ?? Promise.resolve(),
    secrets,
    dataDir,
    saved,
    clipboard,
    folderPicker,
    open: async (hash = '') => {
      await options.clock?.advance(60_000);
      await page.goto(`${renderer.origin}/index.html${hash}`);
    },
    close: async () => {
      await context.close();
      if (!headless) await b.close();
      await current.restarting?.catch(() => undefined);
      await current.services.close();
      await renderer.close();
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
