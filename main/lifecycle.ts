// Where the app's start and shutdown are, for the window that opens before the services do.
// The window asks for it (lifecycle.state) when it loads and is told each change (the
// 'lifecycle' event), so a keychain that waits on a prompt, or a shutdown finishing a batch's
// rows, is a sentence on screen instead of an app that seems not to run. Electron-free.

import type { LifecycleData } from '../common/contract';

export type LifecycleState = LifecycleData;

export const READY: LifecycleState = { phase: 'ready', step: 'Ready' };

export class Lifecycle {
  private state: LifecycleState = { phase: 'starting', step: 'Starting Paydesk' };
  private readonly listeners = new Set<(state: LifecycleState) => void>();

  get current(): LifecycleState {
    return this.state;
  }

  /** A step of the start or of the shutdown, whichever is under way. */
  step(step: string): void {
    const phase = this.state.phase === 'stopping' ? 'stopping' : 'starting';
    this.set({ phase, step });
  }

  set(state: LifecycleState): void {
    // Once stopping, the start's late steps (a start finishing under a quit) change nothing.
    if (this.state.phase === 'stopping' && state.phase !== 'stopping') return;
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  onChange(listener: (state: LifecycleState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Resolves true when `work` ended within `ms`, false when the bound came first. Quitting waits
 * this long for the services to stop, then exits anyway: entries still in flight stay in the
 * journal and are reconciled at the next start, and an invisible process must not keep the
 * single-instance lock (a relaunch would appear to do nothing).
 */
export function withinBound(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    work.then(done, done);
  });
}

/** How long quitting waits for the services (batches, follow-ups, the sandbox, the journal). */
export const STOP_BOUND_MS = 10_000;

export const RELOADED_MESSAGE =
  "Paydesk's window stopped unexpectedly and was loaded again. Nothing was lost: the journal " +
  'and the operations being sent live in the main process and went on.';
