// An extra line: sequential refunds through the services with their secrets in a real OS
// keychain (a new gnome-keyring under a D-Bus session of its own), read once as the app does
// (main/secrets/cached.ts) against read at every action. The other refund lines keep their
// secrets in memory, so this is the keychain's part of what a clerk's refund costs.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { stopKeyringSession } from '../../../scripts/keyring-leftovers.mjs';
import { CHILDREN } from '../lib/child';
import type { BenchLine, BenchRow } from '../lib/report';
import { num, ratio } from '../lib/stats';

const FIGURE =
  '(extra) refunds through the services, sequential, secrets in the OS keychain read once (as the app)';
const TOOLS = ['dbus-run-session', 'gnome-keyring-daemon'];
/** The whole session's bound: its refunds take seconds. */
const SESSION_MS = 300_000;

const onPath = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

type Result = { kept: number; everyTime: number; inMemory: number } | { unusable: string };

export const keychainRow: BenchRow = {
  id: 'keychain',
  title: 'refunds with the secrets in the OS keychain',
  async run(context) {
    const missing = TOOLS.filter((tool) => !onPath(tool));
    if (missing.length > 0) return [notMeasured(`${missing.join(' and ')} not installed`)];
    // The keyring in a folder of its own (a new login keyring, unlocked with a throw-away
    // password), which also names what the session started, to be stopped after it.
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-keyring-'));
    const resultFile = join(dir, 'result.json');
    try {
      await session(dir, resultFile);
      if (!existsSync(resultFile)) return [notMeasured('the refunds did not finish')];
      const result = JSON.parse(readFileSync(resultFile, 'utf8')) as Result;
      if ('unusable' in result) return [notMeasured(`the keychain: ${result.unusable}`)];
      context.log(
        `row keychain: read once ${num(result.kept)}/s, at every action ${num(result.everyTime)}/s, in memory ${num(result.inMemory)}/s`,
      );
      return [
        {
          figure: FIGURE,
          project: `${num(result.kept)}/s (${(1000 / result.kept).toFixed(2)} ms a refund; secrets in memory, same process: ${num(result.inMemory)}/s, ${(1000 / result.inMemory).toFixed(2)} ms)`,
          reference: `read from the keychain at every action: ${num(result.everyTime)}/s (${(1000 / result.everyTime).toFixed(2)} ms)`,
          ratio: ratio(result.kept, result.everyTime),
          target: '',
          note: "3 x 150 sequential refunds per side, interleaved, medians, after 300 untimed refunds per desk; three desks in one process, each with the embedded sandbox (delay 0): two with their keys under a keychain service of their own, in a new gnome-keyring of a D-Bus session of its own (dbus-run-session, XDG_DATA_HOME a folder of its own), and one with its secrets in memory as the refunds rows' desks; as the refunds rows otherwise",
        },
      ];
    } finally {
      await stopKeyringSession(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** The child in a D-Bus session with an unlocked keyring; resolves when the session ends. */
function session(dir: string, resultFile: string): Promise<void> {
  const script = new URL('keychain-refunds.ts', CHILDREN).pathname;
  const child = spawn(
    'dbus-run-session',
    [
      '--',
      'sh',
      '-c',
      'echo -n bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null && "$0" --import tsx "$1" "$2"',
      process.execPath,
      script,
      resultFile,
    ],
    { stdio: 'ignore', env: { ...process.env, XDG_DATA_HOME: dir } },
  );
  return new Promise((resolve) => {
    const bound = setTimeout(() => child.kill('SIGKILL'), SESSION_MS);
    child.once('exit', () => {
      clearTimeout(bound);
      resolve();
    });
  });
}

function notMeasured(why: string): BenchLine {
  return { figure: FIGURE, project: `not measured: ${why}`, reference: '', ratio: '', target: '' };
}
