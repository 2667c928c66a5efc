// Launches the built app in Electron when the Electron binary is installed. It never requires
// the 'electron' package: its index.js starts a download when the binary is missing, and on
// machines without network access to Electron's releases that hangs or fails obscurely.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** The Electron executable, found the way the electron package finds it, or null. */
function findElectronBinary() {
  let electronDir;
  try {
    // package.json only: resolving it runs none of the package's code.
    electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
  // path.txt names the executable inside dist/; the package writes both when the download works.
  // ELECTRON_OVERRIDE_DIST_PATH points at an Electron unpacked elsewhere, as the package allows.
  const pathFile = path.join(electronDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override === undefined && relative === '') return null;
  const binary = path.join(override ?? path.join(electronDir, 'dist'), relative || 'electron');
  return existsSync(binary) ? binary : null;
}

function explainMissingElectron() {
  const scripts = pkg.scripts ?? {};
  const alternatives = [
    ['test', 'lint, type checks, the build and every test'],
    ['sandbox', 'the local sandbox gateway on its own'],
    ['preview', 'the user interface in Chromium, without Electron'],
    ['screenshots', 'every screen as a PNG in docs/screenshots/'],
  ].filter(([name]) => name in scripts);
  const lines = [
    'Paydesk was built (out/), but it cannot be started here:',
    'the Electron binary is not installed on this machine, and it cannot be downloaded here.',
    '',
    "Where Electron's releases can be reached, `npx install-electron` (or a fresh `npm install`)",
    'fetches it, and then `npm start` opens the app.',
  ];
  if (alternatives.length > 0) {
    lines.push('', 'What works without it:');
    for (const [name, what] of alternatives) lines.push(`  npm run ${name.padEnd(11)} ${what}`);
  }
  console.error(lines.join('\n'));
}

const mainFile = path.join(root, pkg.main);
if (!existsSync(mainFile)) {
  console.error(`${path.relative(root, mainFile)} is missing: run \`npm run build\` first.`);
  process.exit(1);
}

const electron = findElectronBinary();
if (electron === null) {
  explainMissingElectron();
  process.exit(1);
}

// better-sqlite3 and keytar are built for Node after `npm install`; Electron needs them built
// for its own ABI (the tests rebuild them for Node again, scripts/ensure-node-abi.mjs).
const rebuilt = spawnSync('npx', ['electron-builder', 'install-app-deps'], {
  cwd: root,
  stdio: 'inherit',
});
if (rebuilt.status !== 0) {
  console.error(
    'Could not build the native modules (better-sqlite3, keytar) for Electron; see the output above.',
  );
  process.exit(1);
}

const child = spawn(electron, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  console.error(`Could not start Electron (${electron}): ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal === null ? 0 : 1));
});
