// What a person who may not change things can still use on a fenced screen
// (renderer/src/components/RoleFence.tsx): the controls that only read, choose, copy or save,
// by screen and accessible name. Every other control on a fenced screen must be disabled: a new
// button that changes something and forgets FencedForm/FencedButton makes the walk fail.

import type { Page } from 'playwright-core';

export type FencedScreen =
  | 'batch'
  | 'payouts'
  | 'payouts-to-pay'
  | 'rebill'
  | 'recurring'
  | 'pay-link'
  | 'card-info'
  | 'profiles'
  | 'keys';

export const FENCED_SCREENS: readonly FencedScreen[] = [
  'batch',
  'payouts',
  'payouts-to-pay',
  'rebill',
  'recurring',
  'pay-link',
  'card-info',
  'profiles',
  'keys',
];

/** `role "name"` of each control that changes nothing, as the accessibility tree names it. */
export const READ_ONLY: Record<FencedScreen, readonly (string | RegExp)[]> = {
  batch: [/^button "Open batch \d+"$/, 'button "Save the result CSV…"'],
  payouts: [],
  'payouts-to-pay': [],
  rebill: [],
  recurring: [],
  'pay-link': [/^button "Copy the link for .*"$/, /^button "QR code of the link for .*"$/],
  // Reading a card reference is a look-up (CARDINFO); saving a card is fenced.
  'card-info': ['textbox "Card reference"', 'button "Read card"'],
  // A status request for a made-up order: the gateway answers, nothing changes.
  profiles: ['button "Test connection"'],
  keys: [
    'combobox "Key for profile"',
    'button "Save public_key.pem…"',
    'button "Copy public key"',
    'textbox "Public key (PEM)"',
  ],
};

/**
 * What each screen shows once its data is read (with a key, an earlier batch open, no payout or
 * link yet), so the walk sees every control, none still to come.
 */
export const READY: Record<FencedScreen, string | RegExp> = {
  batch: 'Save the result CSV…',
  payouts: 'Send payout…',
  'payouts-to-pay': 'No checked payout is waiting to be paid.',
  rebill: 'Charge card…',
  recurring: 'Set up subscription…',
  'pay-link': 'No payment link yet on this profile.',
  'card-info': 'Save card…',
  profiles: /^Test connection$/,
  keys: 'Copy public key',
};

/**
 * Every enabled, visible form control on the screen (the main area, not the app's header or
 * navigation), as `role "name"`. Disabled includes a control inside a disabled fieldset.
 */
export async function enabledControls(page: Page): Promise<string[]> {
  const controls = page
    .locator('main')
    .locator('button:enabled, input:enabled, select:enabled, textarea:enabled');
  const found: string[] = [];
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    const snapshot = await control.ariaSnapshot();
    const first = /^- (\w+)(?: "((?:[^"\\]|\\.)*)")?/.exec(snapshot.split('\n')[0] ?? '');
    found.push(first ? `${first[1]} "${first[2] ?? ''}"` : snapshot);
  }
  return found;
}

/**
 * What is wrong with the controls of a fenced screen: any enabled control not known to be
 * read-only (a changing control that forgot the fence), and any known read-only control, named
 * exactly, that is not there to use (fenced by mistake, or the walk found nothing at all).
 */
export async function fenceProblems(
  page: Page,
  screen: FencedScreen,
  /** False where the screen has nothing to show (no profile, no key): only the left-on check. */
  readOnlyShown = true,
): Promise<string[]> {
  const known = READ_ONLY[screen];
  const enabled = await enabledControls(page);
  const leftOn = enabled.filter(
    (control) => !known.some((k) => (typeof k === 'string' ? k === control : k.test(control))),
  );
  const missing = readOnlyShown
    ? known.filter((k): k is string => typeof k === 'string' && !enabled.includes(k))
    : [];
  return [
    ...leftOn.map((c) => `${c} is enabled and not known to be read-only`),
    ...missing.map((c) => `${c} is not there to use`),
  ];
}
