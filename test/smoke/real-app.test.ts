// A smoke test of the real app: start Paydesk in Electron on a fresh user data folder, wait for
// the Orders screen, look a demo order up on the built-in sandbox, quit, and check the process
// is gone within the quit's bound. It needs an Electron binary, which cannot be downloaded on
// our machines: the release workflow gives it the packaged app (PAYDESK_SMOKE_APP, the unpacked
// executable), a developer an Electron unpacked elsewhere (ELECTRON_OVERRIDE_DIST_PATH) or the
// one `npm start` fetched. Where there is none it is skipped, saying why, and `npm test` passes.
//
// The packaged app's fuses refuse Node's inspector, so the window is driven over Chromium's
// DevTools protocol (--remote-debugging-port), as a person would drive it: no main-process hook.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { STOP_BOUND_MS } from '../../main/lifecycle';
import { electronPackageDir, findElectronBinary } from '../../scripts/electron-binary.mjs';

const root = resolve(import.meta.dirname, '../..');

/** What to launch, or why nothing can be. */
function target(): { command: string; args: string[] } | { skip: string } {
  const packaged = process.env.PAYDESK_SMOKE_APP;
  if (packaged) {
    return existsSync(packaged)
      ? { command: packaged, args: [] }
      : { skip: `PAYDESK_SMOKE_APP names ${packaged}, which does not exist.` };
  }
  const electronDir = electronPackageDir(root);
  const binary = electronDir ? findElectronBinary(electronDir) : null;
  if (!binary)
    return {
      skip:
        'No Electron binary here (none in node_modules/electron/dist, no ELECTRON_OVERRIDE_DIST_PATH, ' +
        'no PAYDESK_SMOKE_APP): the release workflow runs this test on every packaged build.',
    };
  if (!existsSync(join(root, 'out', 'main', 'index.cjs')))
    return { skip: 'out/main/index.cjs is missing: run `npm run build` first.' };
  return { command: binary, args: [root] };
}

const launch = target();
if ('skip' in launch) console.warn(`Smoke test of the real app skipped: ${launch.skip}`);

const exited = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });

describe.skipIf('skip' in launch)('the real app', () => {
  // Made when the tests run, not when they are collected: a skipped run leaves no folder.
  let dataHome = '';
  let child: ChildProcess | undefined;
  let browser: Browser | undefined;
  beforeAll(() => {
    dataHome = mkdtempSync(join(tmpdir(), 'paydesk-smoke-'));
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dataHome) rmSync(dataHome, { recursive: true, force: true });
  });

  it('opens on Orders, looks a sandbox order up, and is gone within the bound after quitting', async () => {
    if ('skip' in launch) return;
    child = spawn(
      launch.command,
      [
        ...launch.args,
        // Port 0: the OS picks one, and Chromium says which on stderr.
        '--remote-debugging-port=0',
        `--user-data-dir=${join(dataHome, 'Paydesk')}`,
      ],
      {
        // A fresh user data folder on every OS (XDG on Linux, HOME elsewhere), so this is a first
        // start: the Sandbox profile and its demo orders.
        env: { ...process.env, XDG_CONFIG_HOME: dataHome, HOME: dataHome, APPDATA: dataHome },
        stdio: ['ignore', 'inherit', 'pipe'],
      },
    );
    const endpoint = await new Promise<string>((found, failed) => {
      let seen = '';
      const timer = setTimeout(
        () => failed(new Error('No DevTools endpoint within 60 s.')),
        60_000,
      );
      child?.stderr?.on('data', (chunk: Buffer) => {
        process.stderr.write(chunk);
        seen += String(chunk);
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match?.[1]) {
          clearTimeout(timer);
          found(match[1]);
        }
      });
    });
    const connected = await chromium.connectOverCDP(endpoint);
    browser = connected;
    const page = await (async () => {
      for (let attempt = 0; attempt < 60; attempt++) {
        const found = browser.contexts().flatMap((c) => c.pages())[0];
        if (found) return found;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error('The app opened no window within 30 s.');
    })();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor({ timeout: 60_000 });
    await page.getByRole('searchbox', { name: 'Order reference' }).fill('demo-sale-1001');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();
    await page.getByRole('heading', { name: /^Order \d+$/ }).waitFor({ timeout: 30_000 });

    // Quit as the OS asks an app to (Electron quits on SIGTERM, through before-quit).
    const quitAt = Date.now();
    child.kill('SIGTERM');
    await Promise.race([exited(child), new Promise((r) => setTimeout(r, STOP_BOUND_MS + 5_000))]);
    expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
    expect(Date.now() - quitAt).toBeLessThan(STOP_BOUND_MS + 5_000);
  }, 180_000);
});
