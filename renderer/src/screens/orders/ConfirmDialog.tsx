// The last step before money moves: a modal that repeats what will be sent. Enter confirms
// (focus starts on the confirm button), Escape or "Go back" returns to the form.

import { useEffect, useRef, type ReactNode } from 'react';

export function ConfirmDialog({
  title,
  confirmLabel,
  danger,
  onConfirm,
  onBack,
  children,
}: {
  title: string;
  confirmLabel: string;
  danger: boolean;
  onConfirm: () => void;
  onBack: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return undefined;
    if (!element.open) element.showModal();
    confirm.current?.focus();
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
      <div className="button-row confirm-buttons">
        <button
          ref={confirm}
          type="button"
          className={danger ? 'danger' : 'primary'}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={onBack}>
          Go back
        </button>
      </div>
    </dialog>
  );
}
