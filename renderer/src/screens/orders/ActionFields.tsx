// The action panel's fields: the amount (capture and refund), the reason (when the action has
// reasons) and the note, each with its hint and the problem the check or main found. The panel
// (ActionPanel.tsx) keeps their values, checks them and locks them once the action is confirmed;
// this only shows them and reports each change.

import type { RefObject } from 'react';

import type { OrderViewData } from '../../../../common/contract';
import { showMoney } from './money';
import { ACTION_WORDS, type ActionKind } from './words';

export type Field = 'amount' | 'reason' | 'note';

const HAS_AMOUNT: Record<ActionKind, boolean> = {
  capture: true,
  refund: true,
  void: false,
  cancel: false,
};

/** Whether this kind of action asks for an amount (a void or cancel takes the whole). */
export const hasAmountFor = (kind: ActionKind) => HAS_AMOUNT[kind];

const described = (...parts: (string | false | undefined)[]) =>
  parts.filter(Boolean).join(' ') || undefined;

export function ActionFields({
  kind,
  ids,
  allowance,
  currency,
  amountRef,
  reasonRef,
  noteRef,
  values,
  onAmount,
  onReason,
  onNote,
  locked,
  problem,
}: {
  kind: ActionKind;
  /** The panel's useId, which every field's id starts with. */
  ids: string;
  allowance: OrderViewData['actions'][ActionKind];
  currency: string;
  amountRef: RefObject<HTMLInputElement | null>;
  reasonRef: RefObject<HTMLSelectElement | null>;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  values: Record<Field, string>;
  onAmount: (value: string) => void;
  onReason: (value: string) => void;
  onNote: (value: string) => void;
  /** Sent or being sent: the values stay as confirmed. */
  locked: boolean;
  problem: (field: Field) => string | undefined;
}) {
  const words = ACTION_WORDS[kind];
  const hasAmount = HAS_AMOUNT[kind];
  return (
    <>
      {hasAmount && (
        <div className="field">
          <label htmlFor={`${ids}-amount`}>
            Amount to {kind === 'capture' ? 'capture' : 'refund'} ({currency})
          </label>
          <div className="amount-input">
            <input
              id={`${ids}-amount`}
              ref={amountRef}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              spellCheck={false}
              value={values.amount}
              readOnly={locked}
              aria-invalid={problem('amount') ? true : undefined}
              aria-describedby={described(
                !locked && `${ids}-amount-hint`,
                problem('amount') && `${ids}-amount-error`,
              )}
              onChange={(e) => onAmount(e.target.value)}
            />
            <span className="amount-currency" aria-hidden="true">
              {currency}
            </span>
          </div>
          {!locked && (
            <span id={`${ids}-amount-hint`} className="field-hint">
              {allowance.max !== undefined
                ? `At most ${showMoney(allowance.max)} ${currency}, what is left. Lower it for a partial ${words.noun}.`
                : `Part of this order was changed outside Paydesk, so only the gateway knows what is left; enter the amount. The gateway refuses more than that and says how much is left.`}
            </span>
          )}
          {problem('amount') && (
            <span id={`${ids}-amount-error`} className="field-error" role="alert">
              {problem('amount')}
            </span>
          )}
        </div>
      )}
      {words.reasons && (
        <div className="field">
          <label htmlFor={`${ids}-reason`}>Reason</label>
          <select
            id={`${ids}-reason`}
            ref={reasonRef}
            value={values.reason}
            disabled={locked}
            required
            aria-invalid={problem('reason') ? true : undefined}
            aria-describedby={problem('reason') ? `${ids}-reason-error` : undefined}
            onChange={(e) => onReason(e.target.value)}
          >
            <option value="">Choose a reason…</option>
            {words.reasons.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {problem('reason') && (
            <span id={`${ids}-reason-error`} className="field-error" role="alert">
              {problem('reason')}
            </span>
          )}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${ids}-note`}>
          Note {values.reason === 'Other' ? '(required for “Other”)' : '(optional)'}
        </label>
        <textarea
          id={`${ids}-note`}
          ref={noteRef}
          rows={2}
          maxLength={500}
          value={values.note}
          readOnly={locked}
          aria-invalid={problem('note') ? true : undefined}
          aria-describedby={problem('note') ? `${ids}-note-error` : undefined}
          onChange={(e) => onNote(e.target.value)}
        />
        {problem('note') && (
          <span id={`${ids}-note-error`} className="field-error" role="alert">
            {problem('note')}
          </span>
        )}
      </div>
    </>
  );
}
