// `npm test` runs vitest through scripts/with-keyring.mjs: inside a private D-Bus session with
// a throw-away unlocked gnome-keyring, so the real-keychain tests run by themselves. Checked by
// running a command through it that stores and reads a secret with keytar (the app's own
// keychain library), by looking for what it started once it has ended, and by running it where
// the tools are missing (a PATH without them).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { runningWith } from '../../../scripts/keyring-leftovers.mjs';

const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts', 'with-keyring.mjs');
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const canStart =
  process.platform === 'linux' && has('dbus-run-session') && has('gnome-keyring-daemon');

const roundTrip = `
const keytar = require('keytar');
(async () => {
  await keytar.setPassword('paydesk-with-keyring-test', 'probe', 'kept-' + process.env.XDG_DATA_HOME);
  console.log(await keytar.getPassword('paydesk-with-keyring-test', 'probe'));
})().catch((e) => { console.error(e.message); process.exit(3); });
`;

describe('scripts/with-keyring.mjs', () => {
  it.skipIf(!canStart)('runs the command with a working, private Secret Service', () => {
    const run = spawnSync(process.execPath, [script, '--', process.execPath, '-e', roundTrip], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    // The secret came back, from a keyring in a private temporary folder, not the user's.
    expect(run.stdout).toMatch(/^kept-\/.+paydesk-keyring-/m);
  });

  it.skipIf(!canStart)('leaves nothing of its session running, nor its keyring folder', () => {
    // The keyring daemon outlives its D-Bus session now and then; a process the command leaves
    // in the background stands for it here, every time: both carry the session's keyring
    // folder in their environment.
    const command = 'echo "$XDG_DATA_HOME"; (sleep 30 >/dev/null 2>&1 &)';
    const run = spawnSync(process.execPath, [script, '--', 'sh', '-c', command], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const folder = run.stdout.trim();
    expect(folder).toMatch(/paydesk-keyring-/);
    const left = runningWith(folder);
    expect(left, 'processes still running with the session keyring folder').toEqual([]);
    expect(existsSync(folder)).toBe(false);
  });

  it('passes the exit status of the command on', () => {
    const run = spawnSync(process.execPath, [script, '--', 'sh', '-c', 'exit 7'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(7);
  });

  it.runIf(process.platform === 'linux')(
    'says what to install where no keyring can be started',
    () => {
      const run = spawnSync(process.execPath, [script, '--', 'sh', '-c', 'echo ran'], {
        encoding: 'utf8',
        env: { PATH: path.dirname(process.execPath) + ':/nonexistent' },
        timeout: 60_000,
      });
      expect(run.stderr).toContain('sudo apt-get install dbus gnome-keyring');
      // `sh` is not on that PATH either, so the command itself fails, and its status is passed on.
      expect(run.status).not.toBe(0);
    },
  );
});
