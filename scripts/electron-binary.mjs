// Finds the Electron executable for `npm start`, fetches it with Electron's own installer when it
// is missing, and launches the app. scripts/start.mjs is the command; this module holds the logic
// so tests can run it against a stand-in Electron package (see scripts/electron-binary.d.mts).
//
// Electron 45's npm package ships no binary and no install script: its `install-electron` bin
// (install.js) downloads the zip for this platform through @electron/get, checks it against the
// package's checksums.json, unpacks it into dist/ and writes path.txt. Its index.js runs that same
// download synchronously, with no time limit, whenever it is required and the binary is missing,
// so nothing here requires the package: only its package.json is resolved, and install.js is run
// as a child process that is watched and stopped when it stalls.
//
// Native modules: nothing is rebuilt for Electron. better-sqlite3 13 loads a prebuilt Node-API
// binary from its own package (lib/binding.js -> prebuilds/<platform>-<arch>.node; no install
// script, "gypfile": false), and keytar 7.9 is built as a Node-API module (binding.gyp defines
// NAPI_VERSION; package.json binary.napi_versions [3]). Both export napi_register_module_v1 and
// import only napi_* symbols, no V8 or NODE_MODULE_VERSION-specific ones (checked with
// `nm -D`), so the same file loads in Node and in Electron's Node. That is why the former
// `electron-builder install-app-deps` step here, and scripts/ensure-node-abi.mjs, which undid it
// before the tests, are gone; electron-builder.yml sets npmRebuild: false for the same reason.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { launchEnv, sandboxAbortAdvice } from './electron-sandbox.mjs';

const MB = 1024 * 1024;

/** The executable's path inside an unpacked Electron, as Electron's install.js names it. */
export function platformExecutable(platform = process.platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  return platform === 'win32' ? 'electron.exe' : 'electron';
}

/** The folder of the `electron` package as Node resolves it from `root`, or null. */
export function electronPackageDir(root) {
  try {
    // package.json only: resolving it runs none of the package's code.
    const require = createRequire(path.join(root, 'package.json'));
    return path.dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * The Electron executable the electron package would run, or null when it is not installed:
 * ELECTRON_OVERRIDE_DIST_PATH (an Electron unpacked elsewhere) when set, otherwise dist/ as
 * install.js leaves it (path.txt written last, dist/version matching the package's version).
 */
export function findElectronBinary(electronDir, env = process.env) {
  const relative = readText(path.join(electronDir, 'path.txt'));
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = path.join(override, relative || platformExecutable());
    return existsSync(binary) ? binary : null;
  }
  if (relative === '') return null;
  const { version } = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
  if (readText(path.join(electronDir, 'dist', 'version')).replace(/^v/, '') !== version)
    return null;
  const binary = path.join(electronDir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}

/** Bytes in the files under `dir` (0 when it does not exist): how far a download has come. */
function bytesUnder(dir) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    try {
      if (entry.isDirectory()) total += bytesUnder(full);
      else if (entry.isFile()) total += statSync(full).size;
    } catch {
      // A file the installer moved or removed while we looked: it counts at the next look.
    }
  }
  return total;
}

const hasProxy = (env) =>
  ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => env[name]);

/**
 * Runs Electron's installer (`command`, by default `node <electron>/install.js`) and watches it.
 * Progress is the bytes it has written: the download goes to a private temporary folder (TMPDIR,
 * TEMP and TMP point there, as @electron/get takes os.tmpdir()) and the unpacking to dist/. No new
 * byte for `stallMs`, or more than `maxMs` in all, stops it. Resolves to
 * { ok: true } or { ok: false, reason: 'failed' | 'stalled' | 'too-slow' | 'not-started', detail,
 * cause }: `cause` is what download-cause.cjs saw fetch fail with ('ENOTFOUND github.com'), or ''.
 */
export function installElectron({
  electronDir,
  command = [process.execPath, '--require', DOWNLOAD_CAUSE, path.join(electronDir, 'install.js')],
  env = process.env,
  stallMs = 60_000,
  maxMs = 30 * 60_000,
  pollMs = 500,
  inheritStdio = true,
  print = (text) => process.stderr.write(text),
}) {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-electron-'));
  // Outside tempDir, whose bytes count as the download's progress.
  const causeDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-electron-cause-'));
  const causeFile = path.join(causeDir, 'cause.txt');
  const childEnv = {
    ...env,
    PAYDESK_DOWNLOAD_CAUSE_FILE: causeFile,
    TMPDIR: tempDir,
    TEMP: tempDir,
    TMP: tempDir,
    // @electron/get draws its own bar only after 30 s and only on a terminal; the line below
    // shows the bytes from the start, on a terminal or in a log.
    ELECTRON_GET_NO_PROGRESS: '1',
    // @electron/get honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY only when asked to.
    ...(hasProxy(env) && !env.ELECTRON_GET_USE_PROXY ? { ELECTRON_GET_USE_PROXY: '1' } : {}),
  };
  const onTerminal = inheritStdio && process.stderr.isTTY === true;

  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file, args, {
      env: childEnv,
      stdio: inheritStdio ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    if (!inheritStdio) {
      child.stdout.on('data', (chunk) => print(String(chunk)));
      child.stderr.on('data', (chunk) => print(String(chunk)));
    }

    const started = Date.now();
    let lastBytes = -1;
    let lastChange = started;
    let lastLogged = 0;
    let stopped = null;
    const stop = (reason) => {
      stopped = reason;
      child.kill();
    };
    let downloaded = 0;
    const watch = setInterval(() => {
      const now = Date.now();
      // The zip grows in tempDir, then moves to Electron's cache, then is unpacked into dist/.
      const inTemp = bytesUnder(tempDir);
      const unpacked = bytesUnder(path.join(electronDir, 'dist'));
      downloaded = Math.max(downloaded, inTemp);
      if (inTemp + unpacked !== lastBytes) {
        lastBytes = inTemp + unpacked;
        lastChange = now;
      }
      const seconds = Math.round((now - started) / 1000);
      const line =
        `Electron: ${(downloaded / MB).toFixed(1)} MB downloaded` +
        (unpacked > 0 ? `, ${(unpacked / MB).toFixed(1)} MB unpacked` : '') +
        ` (${seconds} s)`;
      if (onTerminal) print(`\r${line}`);
      else if (now - lastLogged >= 10_000) {
        print(`${line}\n`);
        lastLogged = now;
      }
      if (stopped !== null) return;
      if (now - lastChange >= stallMs) stop('stalled');
      else if (now - started >= maxMs) stop('too-slow');
    }, pollMs);

    let finished = false;
    const finish = (result) => {
      if (finished) return;
      finished = true;
      clearInterval(watch);
      if (onTerminal) print('\n');
      const cause = result.ok ? '' : readText(causeFile);
      rmSync(tempDir, { recursive: true, force: true });
      rmSync(causeDir, { recursive: true, force: true });
      resolve(result.ok ? result : { ...result, cause });
    };
    child.on('error', (error) =>
      finish({ ok: false, reason: 'not-started', detail: error.message }),
    );
    // 'close', not 'exit': the installer's piped output has all arrived by then.
    child.on('close', (code, signal) => {
      if (stopped !== null) finish({ ok: false, reason: stopped, detail: '' });
      else if (code === 0) finish({ ok: true });
      else finish({ ok: false, reason: 'failed', detail: `exit ${code ?? signal}` });
    });
  });
}

/** The URL Electron's installer fetches, computed as @electron/get does (artifact-utils.js). */
export function downloadUrl(version, env = process.env) {
  const setting = (npmName, envName, fallback) =>
    env[`npm_config_electron_${npmName}`] || env[envName] || fallback;
  const base = setting(
    'mirror',
    'ELECTRON_MIRROR',
    'https://github.com/electron/electron/releases/download/',
  );
  const dir = setting('custom_dir', 'ELECTRON_CUSTOM_DIR', `v${version}`).replace(
    '{{ version }}',
    version,
  );
  const file = `electron-v${version}-${process.platform}-${process.arch}.zip`;
  return `${base}${dir}/${file}`;
}

/** The installer's fetch is wrapped by this, to keep the failure's cause (see the file). */
const DOWNLOAD_CAUSE = path.join(import.meta.dirname, 'download-cause.cjs');

/** What a network error's code means, for the first line of the explanation. */
const CAUSE_HINTS = {
  ENOTFOUND: ' (no such host: check the address, the DNS, or set HTTPS_PROXY)',
  EAI_AGAIN: ' (the name could not be looked up: is this computer online?)',
  ECONNREFUSED: ' (nothing listens there: check ELECTRON_MIRROR or the proxy)',
  ECONNRESET: ' (the connection was cut)',
  ETIMEDOUT: ' (no answer in time)',
  UND_ERR_CONNECT_TIMEOUT: ' (no answer in time)',
  CERT_HAS_EXPIRED: " (the server's certificate has expired)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    ' (a proxy or mirror whose certificate is not trusted: set NODE_EXTRA_CA_CERTS)',
};

const WHY = {
  'override-missing': (version, env) =>
    `ELECTRON_OVERRIDE_DIST_PATH is set to ${env.ELECTRON_OVERRIDE_DIST_PATH}, but there is no ` +
    `Electron executable in it (${platformExecutable()}).`,
  'no-package': () =>
    'The electron package is not installed (node_modules/electron): run `npm install` first.',
  failed: (version, env, _limits, cause) =>
    `Electron ${version} could not be downloaded from ${downloadUrl(version, env)}` +
    (cause ? `: ${cause}${CAUSE_HINTS[cause.split(' ')[0]] ?? ''}.` : '') +
    " (the installer's own message is above).",
  stalled: (version, _env, limits) =>
    `The download of Electron ${version} stalled: nothing arrived for ${limits.stallSeconds} s, ` +
    'so it was stopped.',
  'too-slow': (version, _env, limits) =>
    `The download of Electron ${version} took longer than ${limits.maxMinutes} minutes, so it was stopped.`,
  'not-started': (version) => `Electron's installer for ${version} could not be started.`,
  'nothing-installed': (version) =>
    `Electron's installer finished, but no Electron ${version} executable is in node_modules/electron/dist.`,
};

/**
 * What to tell the user when the Electron binary cannot be had: why, how to get it anyway, and
 * which of the package's scripts work without it.
 */
export function missingElectronAdvice({
  reason,
  version,
  scripts = {},
  env = process.env,
  limits,
  cause = '',
}) {
  const lines = [
    'Paydesk was built (out/), but it cannot be started: ' +
      WHY[reason](version, env, limits ?? { stallSeconds: 60, maxMinutes: 30 }, cause),
    '',
    `To get Electron ${version} (\`npm start\` runs its installer again each time):`,
    '  - behind a proxy: set HTTPS_PROXY (and NO_PROXY) before `npm start`;',
    "  - through a mirror of Electron's releases: set ELECTRON_MIRROR (ending in /), e.g.",
    '    ELECTRON_MIRROR=https://mirror.example/electron/ npm start',
    `  - with Electron ${version} unpacked elsewhere: set ELECTRON_OVERRIDE_DIST_PATH to its folder;`,
    '  - a slow link: PAYDESK_ELECTRON_STALL_SECONDS and PAYDESK_ELECTRON_DOWNLOAD_MINUTES raise the limits.',
  ];
  const alternatives = [
    ['preview', 'the whole app in Chromium, without Electron'],
    ['screenshots', 'every screen as a PNG in docs/screenshots/'],
    ['sandbox', 'the local sandbox gateway on its own'],
    ['test', 'lint, type checks, the build and every test'],
  ].filter(([name]) => name in scripts);
  if (alternatives.length > 0) {
    lines.push('', 'What works without Electron:');
    for (const [name, what] of alternatives) lines.push(`  npm run ${name.padEnd(11)} ${what}`);
  }
  return `${lines.join('\n')}\n`;
}

function positiveNumber(text, fallback) {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && value > 0
    ? value
    : fallback;
}

/**
 * `npm start` after the build: find Electron (fetching it when missing), launch it on `root`, and
 * resolve to the exit code for the process. The installer is the electron package's own
 * install.js; `electronDir` is where tests put a stand-in package (with a stand-in install.js),
 * by default the one Node resolves from `root`.
 */
export async function startApp({
  root,
  args = [],
  env = process.env,
  electronDir = electronPackageDir(root),
  inheritStdio = true,
  print = (text) => process.stderr.write(text),
  pollMs,
}) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const mainFile = path.join(root, pkg.main);
  if (!existsSync(mainFile)) {
    print(`${path.relative(root, mainFile)} is missing: run \`npm run build\` first.\n`);
    return 1;
  }
  const limits = {
    stallSeconds: positiveNumber(env.PAYDESK_ELECTRON_STALL_SECONDS, 60),
    maxMinutes: positiveNumber(env.PAYDESK_ELECTRON_DOWNLOAD_MINUTES, 30),
  };
  const giveUp = (reason, version = '', cause = '') => {
    print(missingElectronAdvice({ reason, version, scripts: pkg.scripts, env, limits, cause }));
    return 1;
  };
  if (electronDir === null) return giveUp('no-package');
  const { version } = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8'));

  let binary = findElectronBinary(electronDir, env);
  if (binary === null) {
    // An override names a folder the user unpacked: the installer would not fill it.
    if (env.ELECTRON_OVERRIDE_DIST_PATH) return giveUp('override-missing', version);
    print(
      `Electron ${version} is not installed yet: fetching it with its own installer ` +
        `(gives up after ${limits.stallSeconds} s without progress).\n`,
    );
    const result = await installElectron({
      electronDir,
      env,
      stallMs: limits.stallSeconds * 1000,
      maxMs: limits.maxMinutes * 60_000,
      pollMs,
      inheritStdio,
      print,
    });
    if (!result.ok) return giveUp(result.reason, version, result.cause);
    binary = findElectronBinary(electronDir, env);
    if (binary === null) return giveUp('nothing-installed', version);
  }

  return new Promise((resolve) => {
    // stderr is read as it passes through, for the Linux sandbox abort (./electron-sandbox.mjs).
    const child = spawn(binary, [root, ...args], {
      env: launchEnv(env),
      stdio: inheritStdio ? ['inherit', 'inherit', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    if (!inheritStdio) child.stdout.on('data', (chunk) => print(String(chunk)));
    child.stderr.on('data', (chunk) => {
      if (inheritStdio) process.stderr.write(chunk);
      else print(String(chunk));
      errors = (errors + String(chunk)).slice(-16_384);
    });
    const forward = (signal) => child.kill(signal);
    const signals = ['SIGINT', 'SIGTERM'];
    for (const signal of signals) process.on(signal, forward);
    let finished = false;
    const done = (code) => {
      if (finished) return;
      finished = true;
      for (const signal of signals) process.off(signal, forward);
      resolve(code);
    };
    child.on('error', (error) => {
      print(`Could not start Electron (${binary}): ${error.message}\n`);
      done(1);
    });
    child.on('close', (code, signal) => {
      const advice = code === 0 ? null : sandboxAbortAdvice(errors, binary);
      if (advice !== null) print(advice);
      done(code ?? (signal === null ? 0 : 1));
    });
  });
}
