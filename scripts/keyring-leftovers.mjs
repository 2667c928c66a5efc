// What a private keyring session leaves running when it ends: gnome-keyring-daemon outlives the
// D-Bus session that started it now and then, a session ended by force leaves its dbus-daemon,
// and a command may leave a process of its own in the background. Each session
// (scripts/with-keyring.mjs, the bench's keychain line) ends them all once it is over, known by
// the session's own keyring folder in their environment (XDG_DATA_HOME), which nothing else
// carries. Linux only: elsewhere no such session is started.

import { readdirSync, readFileSync } from 'node:fs';

/** Pids of this user's processes whose environment names `folder` as XDG_DATA_HOME. */
export function runningWith(folder) {
  const mark = `XDG_DATA_HOME=${folder}\0`;
  const pids = [];
  let names;
  try {
    names = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(mark)) pids.push(Number(name));
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return pids;
}

/**
 * Ends (SIGTERM) every process left running with `folder` as its XDG_DATA_HOME and waits up to
 * `waitMs` for them to go, so the folder can be removed after; returns the pids still there.
 */
export async function stopKeyringSession(folder, waitMs = 2_000) {
  for (const pid of runningWith(folder)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone meanwhile.
    }
  }
  const until = Date.now() + waitMs;
  let left = runningWith(folder);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = runningWith(folder);
  }
  return left;
}
