// Waiting in tests: a pause, and a bounded poll for something a test cannot be told about (a
// row's final state, a server's log line). Every wait ends: a poll that never holds fails
// saying what it waited for.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling every 20 ms; fails after `timeoutMs` naming `what`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
