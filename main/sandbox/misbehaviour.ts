// Misbehaviour on request, for the reliability tests: added latency, a share of 500s (given
// before anything is recorded), and answers dropped after the order was recorded (the socket
// is destroyed after the commit, so the client sees a cut connection while the gateway has
// the order). Shares are applied by error diffusion, not chance: a share of 0.5 fails every
// second request, so tests are exact and never flaky.
//
// Two switches make it a gateway that forgives nothing (the reliability tests run with both):
// `noDedupe` takes every accepted request as a new transaction, even an exact repeat with the
// same client_orderid (a real gateway may); `visibilityDelayMs` hides a recorded transaction
// from `status` for that long (a busy gateway's lag), so "no record" right after sending is
// "not yet". See visibility.ts.

import type { RequestOperation } from '../gateway/operations';

export interface Misbehaviour {
  /** Added to every API answer, in milliseconds of real time. */
  latencyMs: number;
  /** Share (0..1) of API requests answered with a 500 before anything is recorded. */
  serverErrorShare: number;
  /** Share (0..1) of API requests whose answer is dropped after the order was recorded. */
  dropAnswerShare: number;
  /** Limit the misbehaviour to these operations; all when absent. */
  operations?: readonly RequestOperation[];
  /** Repeats are not absorbed: every accepted request is a new transaction. */
  noDedupe: boolean;
  /** A recorded transaction appears in `status` only this many real milliseconds later. */
  visibilityDelayMs: number;
}

export const WELL_BEHAVED: Misbehaviour = {
  latencyMs: 0,
  serverErrorShare: 0,
  dropAnswerShare: 0,
  noDedupe: false,
  visibilityDelayMs: 0,
};

function checkShare(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new RangeError(`${name} must be between 0 and 1; got ${value}.`);
}

export class MisbehaviourSwitch {
  private current: Misbehaviour = { ...WELL_BEHAVED };
  private errorDebt = 0;
  private dropDebt = 0;

  /** Replaces the misbehaviour; fields not given are well-behaved. `set({})` behaves again. */
  set(next: Partial<Misbehaviour>): void {
    const merged: Misbehaviour = { ...WELL_BEHAVED, ...next };
    if (!Number.isFinite(merged.latencyMs) || merged.latencyMs < 0)
      throw new RangeError(`latencyMs must be 0 or more; got ${merged.latencyMs}.`);
    if (!Number.isFinite(merged.visibilityDelayMs) || merged.visibilityDelayMs < 0)
      throw new RangeError(`visibilityDelayMs must be 0 or more; got ${merged.visibilityDelayMs}.`);
    if (typeof merged.noDedupe !== 'boolean')
      throw new RangeError(`noDedupe must be true or false; got ${String(merged.noDedupe)}.`);
    checkShare('serverErrorShare', merged.serverErrorShare);
    checkShare('dropAnswerShare', merged.dropAnswerShare);
    this.current = merged;
    this.errorDebt = 0;
    this.dropDebt = 0;
  }

  get settings(): Misbehaviour {
    return { ...this.current };
  }

  /** Asked on every request: no copy of the settings. */
  get noDedupe(): boolean {
    return this.current.noDedupe;
  }

  private applies(operation: RequestOperation): boolean {
    return !this.current.operations || this.current.operations.includes(operation);
  }

  /** How long a transaction recorded by this operation stays out of `status`. */
  visibilityDelayFor(operation: RequestOperation): number {
    return this.applies(operation) ? this.current.visibilityDelayMs : 0;
  }

  latencyFor(operation: RequestOperation): number {
    return this.applies(operation) ? this.current.latencyMs : 0;
  }

  shouldFail(operation: RequestOperation): boolean {
    if (!this.applies(operation) || this.current.serverErrorShare === 0) return false;
    this.errorDebt += this.current.serverErrorShare;
    if (this.errorDebt >= 1 - 1e-9) {
      this.errorDebt -= 1;
      return true;
    }
    return false;
  }

  shouldDrop(operation: RequestOperation): boolean {
    if (!this.applies(operation) || this.current.dropAnswerShare === 0) return false;
    this.dropDebt += this.current.dropAnswerShare;
    if (this.dropDebt >= 1 - 1e-9) {
      this.dropDebt -= 1;
      return true;
    }
    return false;
  }
}
