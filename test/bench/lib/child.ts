// Child processes under the same launcher as the bench (node with tsx's loader), for what must
// not share the bench's event loop or memory: servers under load, exports, first starts.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export const CHILDREN = new URL('../children/', import.meta.url);

/** `node --import tsx <script> ...args`, with stdout piped (JSON lines) and stderr passed on. */
export function spawnTs(script: string, args: readonly string[] = []): ChildProcess {
  const path = new URL(script, CHILDREN).pathname;
  return spawn(process.execPath, ['--import', 'tsx', path, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The child's next stdout line, parsed as JSON; rejects on exit or after `timeoutMs`. */
export function nextMessage<T>(child: ChildProcess, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (!child.stdout) {
      reject(new Error('the child has no stdout'));
      return;
    }
    const lines = createInterface({ input: child.stdout });
    const done = (fn: () => void) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.off('line', onLine);
      lines.close();
      fn();
    };
    const onLine = (line: string) => {
      try {
        const value = JSON.parse(line) as T;
        done(() => resolve(value));
      } catch {
        // Not a message (a library printed something): keep waiting.
      }
    };
    const onExit = (code: number | null) =>
      done(() => reject(new Error(`the child exited (${code}) before answering`)));
    const timer = setTimeout(
      () => done(() => reject(new Error(`the child did not answer within ${timeoutMs} ms`))),
      timeoutMs,
    );
    lines.on('line', onLine);
    child.once('exit', onExit);
  });
}

/** `node <script> ...args` with no loader: for children that run built JavaScript. */
export function spawnNode(script: string, args: readonly string[] = []): ChildProcess {
  const path = new URL(script, CHILDREN).pathname;
  return spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Runs a child to its end and returns its (first JSON) message. */
export async function runChild<T>(
  script: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<T> {
  const child = spawnTs(script, args);
  try {
    return await nextMessage<T>(child, timeoutMs);
  } finally {
    await stopChild(child, 10_000);
  }
}

/**
 * Lets the child end by itself for `graceMs`, then ends it (SIGTERM, SIGKILL 2 s later), and
 * waits for it.
 */
export function stopChild(child: ChildProcess, graceMs = 0): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const term = setTimeout(() => child.kill('SIGTERM'), graceMs);
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs + 2_000);
    child.once('exit', () => {
      clearTimeout(term);
      clearTimeout(kill);
      resolve();
    });
  });
}
