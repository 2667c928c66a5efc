// `npm start` when the Electron binary is missing: Electron's installer is replaced by stand-ins
// (one that installs a fake Electron, one that fails, one that stalls, one that is slow but
// moving), laid out as Electron 45's package is: package.json + install.js, which leaves
// dist/<executable>, dist/version and path.txt. The fake Electron is a shell script that records
// how it was launched. No test downloads anything.

import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startApp } from '../../../scripts/electron-binary.mjs';

const VERSION = '45.4.1';
const scriptsDir = path.resolve(import.meta.dirname, '../../../scripts');

// The fake Electron: records its arguments next to itself and exits with FAKE_ELECTRON_EXIT.
const fakeElectron = `#!/bin/sh
printf '%s\\n' "$@" > "$(dirname "$0")/launched-with.txt"
exit "\${FAKE_ELECTRON_EXIT:-0}"
`;

// Stand-in installers (CommonJS, as the electron package is). Each records that it ran, the
// environment it was given and its pid, then behaves as named.
const preamble = `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
fs.writeFileSync(path.join(__dirname, 'installer-ran.json'), JSON.stringify({
  pid: process.pid,
  tmpdir: os.tmpdir(),
  useProxy: process.env.ELECTRON_GET_USE_PROXY ?? null,
  noProgress: process.env.ELECTRON_GET_NO_PROGRESS ?? null,
}));
const download = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-download-'));
const zip = path.join(download, 'electron-v${VERSION}-linux-x64.zip');
`;
const installers = {
  succeeds: `${preamble}
console.log('Downloading electron-v${VERSION}-linux-x64.zip');
fs.writeFileSync(zip, Buffer.alloc(64 * 1024));
fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), ${JSON.stringify(fakeElectron)}, { mode: 0o755 });
fs.writeFileSync(path.join(__dirname, 'dist', 'version'), 'v${VERSION}');
fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
`,
  fails: `${preamble}
console.error('HTTPError: Response code 404 (Not Found) for https://mirror.invalid/electron-v${VERSION}-linux-x64.zip');
process.exit(1);
`,
  // Downloads as @electron/get does (the global fetch) from STANDIN_URL, and fails as
  // Electron's install.js does: the error's stack on stderr, exit 1.
  fetches: `${preamble}
fetch(process.env.STANDIN_URL)
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err.stack);
    process.exit(1);
  });
`,
  // Connects, gets a first chunk, then nothing more: a stalled download.
  stalls: `${preamble}
fs.writeFileSync(zip, Buffer.alloc(1024));
setInterval(() => {}, 1000);
`,
  // Slow but steady: a chunk every 100 ms for 4 s, longer than the stall limit in all.
  slow: `${preamble}
let chunks = 0;
const timer = setInterval(() => {
  fs.appendFileSync(zip, Buffer.alloc(1024));
  if (++chunks < 40) return;
  clearInterval(timer);
  ${'/* then installs */'}
  fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), ${JSON.stringify(fakeElectron)}, { mode: 0o755 });
  fs.writeFileSync(path.join(__dirname, 'dist', 'version'), 'v${VERSION}');
  fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
}, 100);
`,
};

let root: string;
let electronDir: string;

/** An app folder with a build and a stand-in electron package using `installer`. */
function layOut(installer: keyof typeof installers) {
  writeFileSync(path.join(electronDir, 'install.js'), installers[installer]);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'paydesk-start-'));
  const pkg = {
    name: 'paydesk-start-fixture',
    type: 'module',
    main: 'out/main/index.cjs',
    scripts: { preview: 'x', screenshots: 'x', sandbox: 'x', test: 'x' },
  };
  writeFileSync(path.join(root, 'package.json'), JSON.stringify(pkg));
  mkdirSync(path.join(root, 'out', 'main'), { recursive: true });
  writeFileSync(path.join(root, 'out', 'main', 'index.cjs'), '');
  electronDir = path.join(root, 'node_modules', 'electron');
  mkdirSync(electronDir, { recursive: true });
  writeFileSync(
    path.join(electronDir, 'package.json'),
    JSON.stringify({
      name: 'electron',
      version: VERSION,
      bin: { 'install-electron': 'install.js' },
    }),
  );
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function start(env: Record<string, string | undefined> = {}, args: string[] = []) {
  let printed = '';
  const run = startApp({
    root,
    args,
    env: { PATH: process.env.PATH, ...env },
    inheritStdio: false,
    print: (text) => {
      printed += text;
    },
    pollMs: 50,
  });
  return run.then((code) => ({ code, printed }));
}

const launchedWith = () =>
  readFileSync(path.join(electronDir, 'dist', 'launched-with.txt'), 'utf8')
    .trim()
    .split('\n');
const installerRan = () =>
  JSON.parse(readFileSync(path.join(electronDir, 'installer-ran.json'), 'utf8')) as {
    pid: number;
    tmpdir: string;
    useProxy: string | null;
    noProgress: string | null;
  };

/** A loopback port nothing listens on (one the OS just gave out and took back). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform === 'win32')('npm start without the Electron binary', () => {
  it('fetches Electron with its installer, then opens the app in it', async () => {
    layOut('succeeds');
    const { code, printed } = await start({}, ['--inspect-nothing']);

    expect(code).toBe(0);
    expect(printed).toContain(`Electron ${VERSION} is not installed yet`);
    expect(printed).toContain('Downloading electron-v45.4.1'); // the installer's own output
    expect(launchedWith()).toEqual([root, '--inspect-nothing']);
    // The download went to a private folder, removed afterwards.
    const ran = installerRan();
    expect(ran.tmpdir).not.toBe(os.tmpdir());
    expect(existsSync(ran.tmpdir)).toBe(false);
    expect(ran.noProgress).toBe('1');
    expect(ran.useProxy).toBeNull();
  });

  it("passes the app's exit code on", async () => {
    layOut('succeeds');
    const { code } = await start({ FAKE_ELECTRON_EXIT: '3' });
    expect(code).toBe(3);
  });

  it('asks the installer to use the proxy named by HTTPS_PROXY', async () => {
    layOut('succeeds');
    const { code } = await start({ HTTPS_PROXY: 'http://127.0.0.1:9' });
    expect(code).toBe(0);
    expect(installerRan().useProxy).toBe('1');
  });

  it('says what to do and what works without Electron when the download fails', async () => {
    layOut('fails');
    const { code, printed } = await start({ ELECTRON_MIRROR: 'https://mirror.invalid/electron/' });

    expect(code).toBe(1);
    expect(printed).toContain('HTTPError: Response code 404'); // the installer's reason
    expect(printed).toContain(
      `Electron ${VERSION} could not be downloaded from https://mirror.invalid/electron/v${VERSION}/electron-v${VERSION}-${process.platform}-${process.arch}.zip`,
    );
    for (const advice of ['HTTPS_PROXY', 'ELECTRON_MIRROR', 'ELECTRON_OVERRIDE_DIST_PATH']) {
      expect(printed).toContain(advice);
    }
    for (const script of ['preview', 'screenshots', 'sandbox', 'test']) {
      expect(printed).toContain(`npm run ${script}`);
    }
    expect(existsSync(path.join(electronDir, 'dist', 'launched-with.txt'))).toBe(false);
  });

  it('keeps the cause of a refused download in the first line: ECONNREFUSED and the address', async () => {
    layOut('fetches');
    const closed = await closedPort();
    const { code, printed } = await start({
      STANDIN_URL: `http://127.0.0.1:${closed}/electron.zip`,
    });

    expect(code).toBe(1);
    const lines = printed.split('\n');
    // The installer's own line, then the first line of the explanation: both say why.
    expect(lines.find((l) => l.includes('fetch failed'))).toBe(
      `TypeError: fetch failed: ECONNREFUSED 127.0.0.1:${closed}`,
    );
    const first = lines.find((l) => l.startsWith('Paydesk was built'));
    expect(first).toContain(
      `could not be downloaded from https://github.com/electron/electron/releases/download/v${VERSION}/`,
    );
    expect(first).toContain(`: ECONNREFUSED 127.0.0.1:${closed} (nothing listens there`);
  });

  it('keeps the cause of a download from an unknown host: the lookup error and the host', async () => {
    layOut('fetches');
    const { code, printed } = await start({
      STANDIN_URL: 'https://electron-mirror.invalid/electron.zip',
    });

    expect(code).toBe(1);
    const first = printed.split('\n').find((l) => l.startsWith('Paydesk was built'));
    // ENOTFOUND where a resolver answers, EAI_AGAIN on a machine with none: either names the host.
    expect(first).toMatch(/: (ENOTFOUND|EAI_AGAIN) electron-mirror\.invalid \(/);
  });

  it('stops a stalled download after the stall limit and says so', async () => {
    layOut('stalls');
    const { code, printed } = await start({ PAYDESK_ELECTRON_STALL_SECONDS: '1' });

    expect(code).toBe(1);
    expect(printed).toContain('download of Electron 45.4.1 stalled: nothing arrived for 1 s');
    expect(printed).toContain('PAYDESK_ELECTRON_STALL_SECONDS');
    expect(printed).toContain('npm run preview');
    const ran = installerRan();
    expect(isRunning(ran.pid)).toBe(false);
    expect(existsSync(ran.tmpdir)).toBe(false);
  });

  it('lets a slow download that keeps moving finish', async () => {
    layOut('slow');
    const { code, printed } = await start({ PAYDESK_ELECTRON_STALL_SECONDS: '2' });

    expect(printed).not.toContain('download of Electron 45.4.1 stalled');
    expect(printed).toMatch(/Electron: \d+\.\d MB downloaded \(\d+ s\)/); // the progress line
    expect(code).toBe(0);
    expect(launchedWith()).toEqual([root]);
  });

  it('stops a download that exceeds the overall limit even while it moves', async () => {
    layOut('slow');
    const { code, printed } = await start({ PAYDESK_ELECTRON_DOWNLOAD_MINUTES: '0.01' });

    expect(code).toBe(1);
    expect(printed).toContain('took longer than 0.01 minutes');
    expect(isRunning(installerRan().pid)).toBe(false);
  });

  it('opens an installed Electron without running the installer', async () => {
    layOut('succeeds');
    spawnSync(process.execPath, [path.join(electronDir, 'install.js')]);
    rmSync(path.join(electronDir, 'installer-ran.json'));
    layOut('fails');

    const { code } = await start();
    expect(code).toBe(0);
    expect(existsSync(path.join(electronDir, 'installer-ran.json'))).toBe(false);
    expect(launchedWith()).toEqual([root]);
  });

  it('fetches again when dist/ holds another Electron version', async () => {
    layOut('succeeds');
    spawnSync(process.execPath, [path.join(electronDir, 'install.js')]);
    writeFileSync(path.join(electronDir, 'dist', 'version'), 'v44.0.0');
    rmSync(path.join(electronDir, 'installer-ran.json'));

    const { code } = await start();
    expect(code).toBe(0);
    expect(existsSync(path.join(electronDir, 'installer-ran.json'))).toBe(true);
  });

  it('uses ELECTRON_OVERRIDE_DIST_PATH, and never downloads into it', async () => {
    layOut('succeeds');
    const elsewhere = path.join(root, 'unpacked-electron');
    mkdirSync(elsewhere);

    const missing = await start({ ELECTRON_OVERRIDE_DIST_PATH: elsewhere });
    expect(missing.code).toBe(1);
    expect(missing.printed).toContain(`ELECTRON_OVERRIDE_DIST_PATH is set to ${elsewhere}`);
    expect(existsSync(path.join(electronDir, 'installer-ran.json'))).toBe(false);

    writeFileSync(path.join(elsewhere, 'electron'), fakeElectron, { mode: 0o755 });
    const found = await start({ ELECTRON_OVERRIDE_DIST_PATH: elsewhere });
    expect(found.code).toBe(0);
    expect(readFileSync(path.join(elsewhere, 'launched-with.txt'), 'utf8').trim()).toBe(root);
  });

  it('asks for the build first when out/ is missing', async () => {
    layOut('succeeds');
    rmSync(path.join(root, 'out'), { recursive: true });
    const { code, printed } = await start();
    expect(code).toBe(1);
    expect(printed).toContain('run `npm run build` first');
    expect(existsSync(path.join(electronDir, 'installer-ran.json'))).toBe(false);
  });
});

describe.skipIf(process.platform === 'win32')('scripts/start.mjs as `npm start` runs it', () => {
  // The real script, copied into the fixture so it resolves the stand-in electron package.
  function runStartScript(env: Record<string, string> = {}) {
    mkdirSync(path.join(root, 'scripts'));
    for (const file of readdirSync(scriptsDir).filter((name) => /\.[cm]js$/.test(name))) {
      copyFileSync(path.join(scriptsDir, file), path.join(root, 'scripts', file));
    }
    chmodSync(path.join(root, 'scripts', 'start.mjs'), 0o755);
    return spawnSync(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--flag'], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });
  }

  it('installs with the package install.js and launches the app folder', () => {
    layOut('succeeds');
    const run = runStartScript();
    expect(run.stderr).toContain(`Electron ${VERSION} is not installed yet`);
    expect(run.status).toBe(0);
    expect(launchedWith()).toEqual([root, '--flag']);
  });

  it('exits non-zero with the advice when the installer fails', () => {
    layOut('fails');
    const run = runStartScript();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('ELECTRON_MIRROR');
    expect(run.stderr).toContain('npm run preview');
  });
});
