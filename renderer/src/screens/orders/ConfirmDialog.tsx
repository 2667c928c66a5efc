// The last step before money moves: a modal that repeats what will be sent. Escape or "Go back"
// returns to the form. On a test or sandbox profile Enter confirms (focus starts on the confirm
// button). On production money needs a deliberate act: the clerk types what the dialog asks
// (the amount, or the order id when there is no amount to type), focus starts in that box,
// never on a button that moves money, and the button stays disabled until the text matches.

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface TypedConfirmation {
  /** What to type, in words: "the amount", "the order id". */
  what: string;
  /** The text that must be typed (compared after trimming). */
  expected: string;
  /** Reads what was typed into the form it is compared in (e.g. " 12" -> "12.00"). */
  normalise?: (typed: string) => string | undefined;
}

export function ConfirmDialog({
  title,
  confirmLabel,
  danger,
  typed,
  onConfirm,
  onBack,
  children,
}: {
  title: string;
  confirmLabel: string;
  danger: boolean;
  /** Production: the clerk types this before the confirm button works. */
  typed?: TypedConfirmation;
  onConfirm: () => void;
  onBack: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const typedInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const ids = useId();
  const typedValue = typed ? (typed.normalise?.(text) ?? text.trim()) : undefined;
  const matches = !typed || typedValue === typed.expected;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return undefined;
    if (!element.open) element.showModal();
    (typedInput.current ?? confirm.current)?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className={`confirm-dialog${danger ? ' confirm-production' : ''}`}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(event) => {
        // Escape: the form stays as it was.
        event.preventDefault();
        onBack();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <div id="confirm-body">{children}</div>
      <form
        onSubmit={(event) => {
          // Enter in the box confirms only when what was typed matches.
          event.preventDefault();
          if (matches) onConfirm();
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
          <button
            ref={confirm}
            type="submit"
            className={danger ? 'danger' : 'primary'}
            disabled={!matches}
          >
            {confirmLabel}
          </button>
          <button type="button" onClick={onBack}>
            Go back
          </button>
        </div>
      </form>
    </dialog>
  );
}
