// A Node that Paydesk does not support is stopped at `npm install` and `npm start` with one
// sentence (scripts/check-node.cjs): run here under the machine's own old Node (Debian's
// /usr/bin/node, 20) and under the Node running the tests (24), and through npm's own hooks.

import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts', 'check-node.cjs');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const check = createRequire(import.meta.url)(script) as {
  satisfies(version: string, range: string): boolean;
};

const OLD_NODE = '/usr/bin/node';
const oldNodeVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
  : '';
const oldNodeIsOld = oldNodeVersion !== '' && !check.satisfies(oldNodeVersion, pkg.engines.node);

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Node check', () => {
  it('reads the range npm reads: 20 and 25 are refused, 22.22.2, 24.15 and 26 pass', () => {
    const ok = (v: string) => check.satisfies(v, pkg.engines.node);
    expect(['v18.20.0', 'v20.20.2', 'v22.12.0', 'v24.14.9', 'v25.1.0'].filter(ok)).toEqual([]);
    expect(['v22.22.2', 'v24.15.0', 'v24.20.1', 'v26.0.0'].every(ok)).toBe(true);
  });

  it('passes quietly on the Node running the tests', () => {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  it.skipIf(!oldNodeIsOld)(
    `stops the machine's old Node (${oldNodeVersion}) with a sentence`,
    () => {
      const run = spawnSync(OLD_NODE, [script], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`Paydesk does not run on Node ${oldNodeVersion} (${OLD_NODE})`);
      expect(run.stderr).toContain(`it needs Node ${pkg.engines.node}`);
      expect(run.stderr).toContain('curl -fsSL https://deb.nodesource.com/setup_24.x');
      expect(run.stderr).toContain('nvm install 24');
    },
  );

  it('runs before `npm install` finishes and before `npm start`', () => {
    expect(pkg.scripts.preinstall).toBe('node scripts/check-node.cjs');
    expect(pkg.scripts.prestart).toBe('node scripts/check-node.cjs');
  });

  // npm's own hooks under the old Node and its npm, on a copy of the project with no
  // dependencies (nothing to fetch): npm install and npm start both end with the sentence.
  it.skipIf(!oldNodeIsOld || !existsSync('/usr/bin/npm'))(
    'makes `npm install` and `npm start` fail under the old Node, saying why',
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-node-check-'));
      temps.push(dir);
      mkdirSync(path.join(dir, 'scripts'));
      copyFileSync(script, path.join(dir, 'scripts', 'check-node.cjs'));
      const copy = {
        name: 'paydesk-node-check',
        private: true,
        engines: pkg.engines,
        scripts: {
          preinstall: pkg.scripts.preinstall,
          prestart: pkg.scripts.prestart,
          start: 'echo STARTED',
        },
      };
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify(copy));
      const env = {
        ...process.env,
        PATH: '/usr/bin:/bin',
        npm_config_cache: path.join(dir, '.npm'),
      };
      for (const command of [['install', '--no-audit', '--no-fund', '--offline'], ['start']]) {
        const run = spawnSync('/usr/bin/npm', command, { cwd: dir, env, encoding: 'utf8' });
        expect(run.status).not.toBe(0);
        expect(run.stdout + run.stderr).toContain(`Paydesk does not run on Node ${oldNodeVersion}`);
        expect(run.stdout).not.toContain('STARTED');
      }
    },
  );
});
