// The words the Orders screen uses for the gateway's and the journal's codes.

import { REFUND_REASONS, VOID_REASONS } from '../../../../common/action-reasons';

export type ActionKind = 'capture' | 'void' | 'refund' | 'cancel';

interface ActionWords {
  /** The button that opens the action. */
  open: string;
  /** The action's heading, e.g. "Refund order 1000001". */
  title: string;
  /** The verb on the confirm button. */
  verb: string;
  /** Past participle for outcomes, e.g. "refunded". */
  noun: string;
  /** What the action does, in one line under the button. */
  hint: string;
  reasons: readonly string[] | undefined;
}

export const ACTION_WORDS: Record<ActionKind, ActionWords> = {
  capture: {
    open: 'Capture',
    title: 'Capture',
    verb: 'Capture',
    noun: 'capture',
    hint: 'Charge all or part of the held amount.',
    reasons: undefined,
  },
  cancel: {
    open: 'Cancel hold',
    title: 'Cancel the hold of',
    verb: 'Cancel hold of',
    noun: 'cancellation',
    hint: 'Release what is left on hold; nothing more can be captured.',
    reasons: VOID_REASONS,
  },
  refund: {
    open: 'Refund',
    title: 'Refund',
    verb: 'Refund',
    noun: 'refund',
    hint: 'Give back all or part of the money.',
    reasons: REFUND_REASONS,
  },
  void: {
    open: 'Void',
    title: 'Void',
    verb: 'Void',
    noun: 'void',
    hint: 'Cancel the whole payment before it settles; a void is never partial.',
    reasons: VOID_REASONS,
  },
};

/** The actions that make sense for a transaction type; the others are not even offered. */
export function actionsFor(transactionType: string | null): ActionKind[] {
  if (transactionType === 'preauth') return ['capture', 'cancel'];
  if (transactionType === null || transactionType === '')
    return ['refund', 'void', 'capture', 'cancel'];
  return ['refund', 'void'];
}

const TYPE_WORDS: Record<string, string> = {
  sale: 'Sale',
  preauth: 'Preauthorization (hold)',
  capture: 'Capture of a preauthorization',
  rebill: 'Rebill',
  recurring: 'Recurring payment',
  payout: 'Payout',
  reversal: 'Refund',
  void: 'Void',
  cancel: 'Cancelled hold',
};

export function typeWords(type: string | null): string {
  if (!type) return 'Not given';
  return TYPE_WORDS[type] ?? type;
}

const STATUS_LABEL: Record<string, string> = {
  approved: 'Approved',
  declined: 'Declined',
  error: 'Error',
  filtered: 'Filtered',
  processing: 'Processing',
  unknown: 'Unknown',
};

export function statusLabel(status: string): string {
  return STATUS_LABEL[status] ?? status;
}

/** A journal operation in the words of the screen. */
export function operationWords(operation: string, onPreauth: boolean): string {
  if (operation === 'CAPTURE') return 'Capture';
  if (operation === 'VOID') return 'Void';
  if (operation === 'RETURN') return onPreauth ? 'Cancel hold' : 'Refund';
  return operation;
}

export const STATE_WORDS: Record<string, string> = {
  sending: 'Sending',
  acknowledged: 'Waiting for final status',
  unknown: 'Answer lost: checking',
  final: 'Final',
  refused: 'Refused',
};
