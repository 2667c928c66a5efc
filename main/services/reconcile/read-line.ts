// One reconciliation line read: the gateway's `status` of the line's order (nothing else is
// ever sent), asked again after a growing pause when the gateway answers 500, garbles or does
// not answer in time, within the run's pace; then compared with the journal as it is now
// (compare.ts). A line the gateway would not answer within the bound is "could not be read",
// never a disagreement. A refusal that every line would meet alike (the profile's credentials,
// its control key missing, the journal away) stops the run with its reason instead.

import type { GatewayClient, OrderRef } from '../../gateway/client';
import { AuthError, GatewayError, InputError, ValidationError } from '../../gateway/errors';
import type { StatusResponse } from '../../gateway/response';
import type { JournalEntry, JournalPort } from '../../store/journal/port';
import type { Line, LineResult } from '../../store/sqlite/reconcile-runs';
import { outcomeRule } from '../action/outcomes';
import { entryFindings, elsewhereFindings, ORDER_MAKING, readingOf, type Finding } from './compare';
import { backoffBefore, type Pace, type RetryPolicy } from './pace';

/** A failure that every line of the run would meet: the run pauses and says why. */
export class RunStop extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunStop';
  }
}

/** The pace was stopped (pause, quit) before the line's answer: it stays to do. */
export const STOPPED = Symbol('stopped');

type Asked =
  | { found: StatusResponse; attempts: number }
  | { found: undefined; attempts: number }
  | { unreadable: string; attempts: number };

/** Asks `status` within the pace, retrying what a busy gateway may answer next time. */
async function askStatus(
  client: GatewayClient,
  ref: OrderRef,
  pace: Pace,
  policy: RetryPolicy,
  stop?: AbortSignal,
): Promise<Asked | typeof STOPPED> {
  let last = '';
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (attempt > 1 && !(await pace.wait(backoffBefore(attempt, policy)))) return STOPPED;
    if (!(await pace.slot())) return STOPPED;
    try {
      const signal = AbortSignal.timeout(policy.timeoutMs);
      return {
        found: await client.status(ref, stop ? AbortSignal.any([stop, signal]) : signal),
        attempts: attempt,
      };
    } catch (error) {
      // A quit gave the request up: the line stays to do, asked about at the next start.
      if (stop?.aborted) return STOPPED;
      // The gateway's "no record" (or a reference it will not take): it does not know the order.
      if (error instanceof ValidationError) return { found: undefined, attempts: attempt };
      if (error instanceof AuthError || error instanceof InputError)
        throw new RunStop(error.message);
      if (
        !(error instanceof GatewayError) &&
        !(error instanceof Error && error.name === 'TimeoutError')
      )
        throw error;
      last = error instanceof Error ? error.message : String(error);
    }
  }
  return {
    unreadable: `The gateway's status could not be read after ${policy.attempts} tries: ${last}`,
    attempts: policy.attempts,
  };
}

const result = (
  state: LineResult['state'],
  attempts: number,
  extra: { gateway?: StatusResponse | undefined; findings?: Finding[]; error?: string } = {},
): LineResult => ({
  state,
  attempts,
  gateway: extra.gateway ? JSON.stringify(readingOf(extra.gateway)) : null,
  findings: extra.findings?.length ? JSON.stringify(extra.findings) : null,
  error: extra.error ?? null,
});

const NOT_ASKABLE =
  'The gateway offers no status for this kind of operation (a subscription): nothing to compare.';

export async function readLine(
  line: Line,
  journal: JournalPort,
  client: GatewayClient,
  pace: Pace,
  policy: RetryPolicy,
  /** Aborts the request under way (a quit): the line stays to do. */
  stop?: AbortSignal,
): Promise<LineResult | typeof STOPPED> {
  if (line.kind === 'order') {
    const asked = await askStatus(client, { orderid: line.ref }, pace, policy, stop);
    if (asked === STOPPED) return STOPPED;
    if ('unreadable' in asked)
      return result('unreadable', asked.attempts, { error: asked.unreadable });
    if (!asked.found)
      return result('differs', asked.attempts, {
        findings: [
          {
            kind: 'no-record',
            message: `Paydesk's journal holds actions on order ${line.ref}; the gateway has no record of it.`,
          },
        ],
      });
    const findings = elsewhereFindings(readingOf(asked.found), await journal.forTarget(line.ref));
    return result(findings.length ? 'differs' : 'agrees', asked.attempts, {
      gateway: asked.found,
      findings,
    });
  }
  const before = await journal.get(line.ref);
  if (!before) return result('unreadable', 0, { error: 'The journal no longer holds this entry.' });
  const rule = outcomeRule(before.operation);
  const ref = rule.statusRef(before);
  if (!ref) return result('not-askable', 0, { error: NOT_ASKABLE });
  const asked = await askStatus(client, ref, pace, policy, stop);
  if (asked === STOPPED) return STOPPED;
  if ('unreadable' in asked)
    return result('unreadable', asked.attempts, { error: asked.unreadable });
  const found = asked.found && rule.received(asked.found) ? asked.found : undefined;
  // The journal as it is now: its follow-up may have settled the entry while the status was asked.
  const entry: JournalEntry = (await journal.get(line.ref)) ?? before;
  const acting =
    ORDER_MAKING.has(entry.operation) && entry.orderId
      ? await journal.forTarget(entry.orderId)
      : [];
  const outcome = found ? rule.finalOf(found)?.status : undefined;
  const findings = entryFindings(entry, found ? readingOf(found) : undefined, outcome, acting);
  return result(findings.length ? 'differs' : 'agrees', asked.attempts, {
    gateway: found,
    findings,
  });
}
