// `npm start` launching Electron: on Ubuntu 23.10+ a fresh Electron download aborts on its
// sandbox helper, and `npm start` then prints the two commands that fix it (or the AppArmor
// profile), never a --no-sandbox; and ELECTRON_RUN_AS_NODE never reaches Electron. The Electron
// here is a shell script standing in for the binary: it aborts as Chromium does (the message on
// stderr, then SIGTRAP) or records its environment.

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startApp } from '../../../scripts/electron-binary.mjs';
import { sandboxAbortAdvice } from '../../../scripts/electron-sandbox.mjs';

const VERSION = '45.4.1';
let root: string;
let dist: string;

/** An app folder with a build and an installed stand-in Electron running `script`. */
function installElectron(script: string) {
  writeFileSync(path.join(dist, 'electron'), `#!/bin/sh\n${script}\n`);
  chmodSync(path.join(dist, 'electron'), 0o755);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'paydesk-start-sandbox-'));
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'fixture', main: 'out/main/index.cjs', scripts: {} }),
  );
  mkdirSync(path.join(root, 'out', 'main'), { recursive: true });
  writeFileSync(path.join(root, 'out', 'main', 'index.cjs'), '');
  const electronDir = path.join(root, 'node_modules', 'electron');
  dist = path.join(electronDir, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(
    path.join(electronDir, 'package.json'),
    JSON.stringify({ name: 'electron', version: VERSION }),
  );
  writeFileSync(path.join(electronDir, 'path.txt'), 'electron');
  writeFileSync(path.join(dist, 'version'), `v${VERSION}`);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}) {
  let printed = '';
  const code = await startApp({
    root,
    env: { PATH: process.env.PATH, ...env },
    inheritStdio: false,
    print: (text) => {
      printed += text;
    },
  });
  return { code, printed };
}

const chromiumAbort = (helper: string) =>
  `[12345:1127/101010.000000:FATAL:setuid_sandbox_host.cc(158)] The SUID sandbox helper binary ` +
  `was found, but is not configured correctly. Rather than run without sandboxing I'm aborting ` +
  `now. You need to make sure that ${helper} is owned by root and has mode 4755.`;

describe.skipIf(process.platform === 'win32')('npm start and the Linux sandbox', () => {
  it('prints the two commands that fix the SUID sandbox abort, and the AppArmor profile', async () => {
    const helper = path.join(dist, 'chrome-sandbox');
    installElectron(`echo "${chromiumAbort(helper)}" >&2\nkill -TRAP $$`);
    const { code, printed } = await start();
    expect(code).not.toBe(0);
    expect(printed).toContain('not configured correctly'); // Electron's own words pass through
    expect(printed).toContain(`  sudo chown root:root ${helper}\n  sudo chmod 4755 ${helper}\n`);
    expect(printed).toContain(`profile paydesk-electron-dev "${path.join(dist, 'electron')}"`);
    expect(printed).toContain('sudo apparmor_parser -r /etc/apparmor.d/paydesk-electron-dev');
    expect(printed).not.toContain('--no-sandbox');
  });

  it('says nothing of the sandbox when Electron fails for another reason', async () => {
    installElectron('echo "Segmentation fault" >&2\nexit 139');
    const { code, printed } = await start();
    expect(code).toBe(139);
    expect(printed).not.toContain('sudo');
  });

  it('never passes ELECTRON_RUN_AS_NODE to Electron', async () => {
    const seen = path.join(root, 'env.txt');
    installElectron(
      `echo "run-as-node=\${ELECTRON_RUN_AS_NODE-unset} other=\${PAYDESK_KEEP}" > ${seen}`,
    );
    const { code } = await start({ ELECTRON_RUN_AS_NODE: '1', PAYDESK_KEEP: 'kept' });
    expect(code).toBe(0);
    expect(readFileSync(seen, 'utf8').trim()).toBe('run-as-node=unset other=kept');
  });
});

describe('sandboxAbortAdvice', () => {
  it('names the helper beside the binary when Electron did not name one', () => {
    const advice = sandboxAbortAdvice(
      'The SUID sandbox helper binary was found, but is not configured correctly.',
      '/opt/electron/electron',
    );
    expect(advice).toContain('sudo chmod 4755 /opt/electron/chrome-sandbox');
  });

  it('is null for any other output', () => {
    expect(sandboxAbortAdvice('GPU process exited', '/opt/electron/electron')).toBeNull();
  });
});
