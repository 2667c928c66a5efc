// Types for ./keyring-leftovers.mjs, for the bench and the tests that import it.

export function stopKeyringSession(folder: string, waitMs?: number): Promise<number[]>;
export function runningWith(folder: string): number[];
