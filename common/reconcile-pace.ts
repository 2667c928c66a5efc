// The pace a person may set for a reconciliation: the Reconciliation screen shows its bounds
// and defaults, and the contract's schemas check them. Kept apart from those zod schemas so that
// the screen does not load zod to read four numbers.

/** What a person may set: requests a second (retries count) and requests at once. */
export const RECONCILE_PACE = {
  perSecond: { min: 0.1, max: 500, default: 5 },
  atOnce: { min: 1, max: 256, default: 4 },
} as const;
