// The reasons a clerk chooses from for a refund or a void: the Orders screen offers them and the
// contract accepts any free text (a batch file brings its own). Kept apart from the contract's zod
// schemas so that a screen showing the list does not load every schema to read six words.

export const REFUND_REASONS = [
  'Customer request',
  'Returned goods',
  'Damaged goods',
  'Duplicate charge',
  'Fraud',
  'Other',
] as const;
export const VOID_REASONS = [
  'Duplicate order',
  'Customer cancelled',
  'Wrong amount',
  'Fraud',
  'Other',
] as const;
