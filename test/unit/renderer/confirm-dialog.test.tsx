// @vitest-environment jsdom
// The one confirmation dialog: where focus starts (never on a button that moves money on
// production), the typed amount or id that must match before anything is confirmed, and Escape.

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  ConfirmDialog,
  typeTheAmount,
  typeTheId,
} from '../../../renderer/src/components/ConfirmDialog';

beforeAll(() => {
  // jsdom has no modal dialogs: showModal marks it open, as a browser would.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(cleanup);

function money(production: boolean, typed = typeTheAmount('1234.5', 'EUR')) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog
      title="Pay 1,234.50 EUR?"
      confirmLabel="Pay 1,234.50 EUR"
      money={{ production, typed }}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>To card reference 42.</p>
    </ConfirmDialog>,
  );
  return { onConfirm, onCancel, dialog: screen.getByRole('dialog', { name: 'Pay 1,234.50 EUR?' }) };
}

/** Escape on a modal dialog: the browser fires a cancelable "cancel" event at it. */
function pressEscape(dialog: HTMLElement) {
  fireEvent(dialog, new Event('cancel', { cancelable: true }));
}

describe('ConfirmDialog on a production profile', () => {
  it('starts with focus in the box to type, the confirm button disabled', () => {
    money(true);
    const typed = screen.getByRole('textbox', { name: /To confirm, type the amount: 1234\.50/ });
    expect(document.activeElement).toBe(typed);
    expect(screen.getByRole('button', { name: 'Pay 1,234.50 EUR' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByText('Production profile: real money.')).toBeTruthy();
  });

  it('Enter confirms nothing before the typed amount matches, then confirms once', () => {
    const { onConfirm } = money(true);
    const typed = screen.getByRole('textbox', { name: /To confirm, type the amount/ });
    const confirm = screen.getByRole('button', { name: 'Pay 1,234.50 EUR' });
    fireEvent.submit(typed);
    fireEvent.change(typed, { target: { value: '1234.05' } });
    fireEvent.submit(typed);
    fireEvent.change(typed, { target: { value: '1,234.50' } });
    fireEvent.submit(typed);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(confirm).toHaveProperty('disabled', true);
    expect(screen.getByText('That is not 1234.50.')).toBeTruthy();
    // As a clerk writes it: the trailing zero is optional, spaces around are ignored.
    fireEvent.change(typed, { target: { value: ' 1234.5 ' } });
    expect(confirm).toHaveProperty('disabled', false);
    fireEvent.submit(typed);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    // The caller gets what was typed, read as the form reads it (main may check it again).
    expect(onConfirm).toHaveBeenCalledWith('1234.50');
  });

  it('where no amount moves, the id must be typed exactly', () => {
    const { onConfirm } = money(true, typeTheId('the order id', '1000003'));
    const typed = screen.getByRole('textbox', { name: /To confirm, type the order id: 1000003/ });
    expect(document.activeElement).toBe(typed);
    fireEvent.change(typed, { target: { value: '100003' } });
    fireEvent.submit(typed);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(typed, { target: { value: '1000003' } });
    fireEvent.submit(typed);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('reads a yen amount without decimals: "5000" matches, "5000.00" does not', () => {
    const { onConfirm } = money(true, typeTheAmount('5000', 'JPY'));
    const typed = screen.getByRole('textbox', { name: /type the amount: 5000/ });
    fireEvent.change(typed, { target: { value: '5000.00' } });
    fireEvent.submit(typed);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(typed, { target: { value: '5000' } });
    fireEvent.submit(typed);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('Escape goes back without confirming, even after the amount was typed', () => {
    const { onConfirm, onCancel, dialog } = money(true);
    fireEvent.change(screen.getByRole('textbox', { name: /type the amount/ }), {
      target: { value: '1234.50' },
    });
    pressEscape(dialog);
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

describe('ConfirmDialog on a test or sandbox profile', () => {
  it('asks nothing to be typed; focus starts on "Go back", never on the button that pays', () => {
    const { onConfirm } = money(false);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByText('Production profile: real money.')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Go back' }));
    fireEvent.click(screen.getByRole('button', { name: 'Pay 1,234.50 EUR' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('"Go back" and Escape return to the form', () => {
    const { onCancel, onConfirm, dialog } = money(false);
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    pressEscape(dialog);
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

describe('ConfirmDialog for an admin act', () => {
  it('starts on Cancel, so Enter never removes or replaces by accident', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog
        title="Remove the profile “Shop”?"
        confirmLabel="Remove profile"
        danger
        onConfirm={onConfirm}
        onCancel={onCancel}
      >
        <p>Its keys are deleted.</p>
      </ConfirmDialog>,
    );
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);
    expect(screen.getByRole('button', { name: 'Remove profile' }).className).toBe('danger');
    pressEscape(screen.getByRole('dialog', { name: 'Remove the profile “Shop”?' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Remove profile' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
