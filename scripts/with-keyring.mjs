// Runs a command (`npm test` runs vitest through it) inside a private D-Bus session with a
// throw-away, unlocked gnome-keyring, so the real-keychain tests (test/keychain) run by
// themselves on Linux wherever a Secret Service can be started, and no developer's login
// keyring is touched: the keyring lives in a temporary XDG_DATA_HOME, removed afterwards.
// Where it cannot be started (not Linux, or dbus-run-session / gnome-keyring-daemon missing)
// the command runs as it is, after one line saying what to install; the keychain tests then
// skip, saying why. Usage: node scripts/with-keyring.mjs -- <command> [args...]

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { stopKeyringSession } from './keyring-leftovers.mjs';

const separator = process.argv.indexOf('--');
const command = separator >= 0 ? process.argv.slice(separator + 1) : [];
if (command.length === 0) {
  console.error('Usage: node scripts/with-keyring.mjs -- <command> [args...]');
  process.exit(2);
}

const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** Why a keyring session cannot be started here, or undefined when it can. */
function whyNot() {
  if (process.platform !== 'linux') return undefined; // macOS and Windows: the OS keychain itself
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => !has(tool));
  if (missing.length === 0) return undefined;
  return (
    `No private keyring for the real-keychain tests (${missing.join(' and ')} not found): they ` +
    'will skip. To run them: sudo apt-get install dbus gnome-keyring'
  );
}

function run(file, args, env) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: 'inherit', env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.error(`Could not run ${file}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Removes a throw-away folder; never changes the command's exit status. A keyring daemon that
 * did not end at once may still be writing its keyring file while the folder is removed
 * (ENOTEMPTY): retried, and at worst left behind with one line saying so.
 */
function removeQuietly(folder) {
  try {
    rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (error) {
    console.error(`Could not remove ${folder}: ${error.message}`);
  }
}

const problem = whyNot();
let code;
if (process.platform !== 'linux' || problem) {
  if (problem) console.error(problem);
  code = await run(command[0], command.slice(1), process.env);
} else {
  const home = mkdtempSync(path.join(os.tmpdir(), 'paydesk-keyring-'));
  // The daemon's control socket lives in XDG_RUNTIME_DIR: a folder of this session's own, so a
  // session started inside another (a test of this script under npm test) or beside it never
  // finds and unlocks the other's daemon instead of starting its own.
  const runtime = mkdtempSync(path.join(os.tmpdir(), 'paydesk-keyring-run-'));
  try {
    const script =
      'echo -n test-only | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"';
    code = await run('dbus-run-session', ['--', 'sh', '-c', script, 'sh', ...command], {
      ...process.env,
      XDG_DATA_HOME: home,
      XDG_RUNTIME_DIR: runtime,
    });
  } finally {
    // What the session left running (the keyring daemon now and then): ended here, or runs
    // would leave them behind, one by one.
    const left = await stopKeyringSession(home);
    if (left.length > 0)
      console.error(`The test keyring's processes ${left.join(', ')} did not end.`);
    removeQuietly(home);
    removeQuietly(runtime);
  }
}
process.exitCode = code;
