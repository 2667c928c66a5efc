// The one confirmation of the app: a modal on the native <dialog> that repeats what will happen.
// Escape cancels and the page behind is inert until the person answers.
//
// Two kinds, chosen by the caller's props so a money screen cannot forget the production rule:
// - plain (admin acts: remove a profile, rotate or replace a key): "Cancel" has the focus, so
//   Enter never does the irreversible thing by accident;
// - money (anything that moves money or registers it to move: capture, void, refund, cancel,
//   payouts, payout pay, rebill, subscriptions, payment links, save card). Focus never starts
//   on the button that moves money: on a test or sandbox profile it starts on "Go back" (the
//   clerk reads, then presses the confirm button); on a production profile the clerk types
//   what the dialog asks (the amount, or the card reference or order id when there is no
//   amount), focus starts in that box, and the button stays disabled until the text matches.
//   "Go back" returns to the form as it was.
//
// The confirm button is a FencedButton: a dialog open when the person's role changes (demoted
// from finance while confirming a refund) loses its confirm button at once; Cancel stays.

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

import { currencyExponent, readMoney } from '../../../common/money';
import { FencedButton, RoleReason, useFence } from './RoleFence';
import './confirm-dialog.css';

export interface TypedConfirmation {
  /** What to type, in words: "the amount", "the order id", "the card reference". */
  what: string;
  /** The text that must be typed (compared after trimming, or after `normalise`). */
  expected: string;
  /** Reads what was typed the way the form reads it (e.g. " 12" -> "12.00"). */
  normalise?: (typed: string) => string | undefined;
}

/**
 * The amount to type on production: "12", "12.0" and "12.00" all match 12.00 EUR, read by the
 * same rule the forms use for the currency's decimals (never a float).
 */
export function typeTheAmount(amount: string, currency: string): TypedConfirmation {
  const read = (text: string) => {
    const reading = readMoney(text, currencyExponent(currency));
    return reading.ok ? reading.text : undefined;
  };
  return { what: 'the amount', expected: read(amount) ?? amount.trim(), normalise: read };
}

/** Where no amount moves: an identifier to type, e.g. ("the order id", "1000003"). */
export function typeTheId(what: string, id: string): TypedConfirmation {
  return { what, expected: id.trim() };
}

interface CommonProps {
  title: string;
  confirmLabel: string;
  /** Gets what the clerk typed (read by `normalise`) when a typed confirmation was asked. */
  onConfirm: (typed?: string) => void;
  onCancel: () => void;
  /** The button that answers "no", when "Cancel" would be ambiguous (cancelling a batch). */
  cancelLabel?: string;
  children: ReactNode;
}

/** A plain confirmation (admin acts). `danger` styles a destructive confirm button. */
interface PlainProps extends CommonProps {
  danger?: boolean;
  money?: undefined;
}

/** Money moves (or is registered to move): on production the clerk types `typed` first. */
interface MoneyProps extends CommonProps {
  money: { production: boolean; typed: TypedConfirmation };
  danger?: undefined;
}

export function ConfirmDialog(props: PlainProps | MoneyProps) {
  const { title, confirmLabel, onConfirm, onCancel, children, money } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const typedInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const ids = useId();
  const production = money?.production ?? false;
  const typed = production ? money?.typed : undefined;
  const typedValue = typed ? (typed.normalise?.(text) ?? text.trim()) : undefined;
  const matches = !typed || typedValue === typed.expected;
  const fence = useFence();
  const fenced = fence !== undefined;
  const danger = money ? production : (props.danger ?? false);
  // Where focus starts when the dialog opens (after the typed box, which comes first): never on
  // a button that moves money or does the irreversible thing.
  const firstButton = useRef(cancel);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return undefined;
    // jsdom has no showModal; the attribute is enough there.
    if (!element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    (typedInput.current ?? firstButton.current.current)?.focus();
    return () => {
      if (typeof element.close === 'function' && element.open) element.close();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className={`confirm-dialog${production ? ' confirm-production' : ''}`}
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-body`}
      onCancel={(event) => {
        // Escape: nothing happens and the form stays as it was.
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${ids}-title`}>{title}</h2>
      <div id={`${ids}-body`}>
        {production && <p className="confirm-production-strip">Production profile: real money.</p>}
        {children}
      </div>
      {/* The page's own line is behind the modal: the dialog says why too. */}
      {fence && <RoleReason reason={fence.reason} />}
      <form
        onSubmit={(event) => {
          // Enter in the box confirms only when what was typed matches, and the role allows it.
          event.preventDefault();
          if (matches && !fenced) onConfirm(typedValue);
        }}
      >
        {typed && (
          <div className="field confirm-typed">
            <label htmlFor={`${ids}-typed`}>
              To confirm, type {typed.what}: <strong className="mono">{typed.expected}</strong>
            </label>
            <input
              id={`${ids}-typed`}
              ref={typedInput}
              value={text}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${ids}-typed-hint`}
              onChange={(e) => setText(e.target.value)}
            />
            <span id={`${ids}-typed-hint`} className="field-hint" aria-live="polite">
              {text.trim() === ''
                ? 'Production: nothing is sent until you type it.'
                : matches
                  ? 'It matches.'
                  : `That is not ${typed.expected}.`}
            </span>
          </div>
        )}
        <div className="button-row confirm-buttons">
          <FencedButton
            ref={confirm}
            type="submit"
            className={danger ? 'danger' : 'primary'}
            disabled={!matches}
          >
            {confirmLabel}
          </FencedButton>
          <button ref={cancel} type="button" onClick={onCancel}>
            {props.cancelLabel ?? (money ? 'Go back' : 'Cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
