// The role fence's walk (renderer/src/components/RoleFence.tsx): one table of every screen and
// every state an action leaves a screen in (an order looked up, a batch loaded, a batch paused),
// each with the controls that only read, choose, copy or save (usable by anyone) and the
// controls that change something (usable only by whoever the fence lets through). A new screen
// or state is added here once; the role-fence test walks it as support, finance and admin, and
// the read-only test walks it on a database that cannot be written.
//
// Where the fence holds, every enabled control must be a known read-only one, so a button that
// changes something and forgets the fence fails the walk; and the changing controls must be on
// screen, disabled, so a walk that never reached its state fails too. Where the fence lets the
// person through, the changing controls must be enabled: the walk proves it sees them.

import type { Page } from 'playwright-core';

import type { Harness } from '../../harness/harness';
import type { Allowed } from '../../../renderer/src/session';
import { EARLIER_BATCH } from './team';

export type Need = keyof Allowed;

/** What the desk holds before the walk (made with its services), for the states to open. */
export interface Seeded {
  /** An earlier batch, cancelled: only its results to read and save. */
  earlierBatch: number;
  /** A batch checked and stored, not sent. */
  readyBatch: number;
  /** A batch started and paused with rows left. */
  pausedBatch: number;
}

export interface FenceState {
  /** Unique, as the walk reports it: "orders: a preauth looked up". */
  name: string;
  need: Need;
  /** Needs the embedded sandbox gateway (not started on a read-only database). */
  gateway?: boolean;
  /** Opens the screen and does what leads to the state. */
  reach: (h: Harness, seeded: Seeded) => Promise<void>;
  /** Shown once the state's data is read, so no control is still to come. */
  ready: string | RegExp;
  /** `role "name"` of each control that changes nothing: usable by anyone. */
  readOnly: readonly (string | RegExp)[];
  /** `role "name"` of the controls that change something (send money, edit, load, resume). */
  changing: readonly string[];
}

/** Two refunds on two orders, sent one order at a time (so a pause leaves one). */
const TWO_REFUNDS =
  'operation,client_orderid,amount,currency,reason,note\r\n' +
  'refund,demo-sale-1001,1.00,EUR,Damaged,\r\n' +
  'refund,demo-sale-1002,1.00,EUR,Damaged,\r\n';

/**
 * The batches the states open, made with the desk's services as a clerk would: loading and
 * cancelling send nothing; the paused one is started and paused at once (as support, the team
 * journal refuses its first row, and it pauses all the same with its other row left).
 */
export async function seedDesk(h: Harness): Promise<Seeded> {
  const { batches, profiles } = h.services;
  const profile = (await profiles.list()).find((p) => p.embedded);
  if (!profile) throw new Error('The desk has no Sandbox profile.');
  const earlier = await batches.load(profile.id, 'returns-october.csv', EARLIER_BATCH);
  batches.cancel(earlier.batch.id);
  const ready = await batches.load(profile.id, 'returns-ready.csv', TWO_REFUNDS, 1);
  const paused = await batches.load(profile.id, 'returns-paused.csv', TWO_REFUNDS, 1);
  batches.start(paused.batch.id);
  batches.pause(paused.batch.id);
  await batches.idle(paused.batch.id);
  const state = batches.get(paused.batch.id).state;
  if (state !== 'paused') throw new Error(`The paused batch is ${state}.`);
  return {
    earlierBatch: earlier.batch.id,
    readyBatch: ready.batch.id,
    pausedBatch: paused.batch.id,
  };
}

const LOOKUP_FORM = ['combobox "Look up by"', 'searchbox "Order reference"', 'button "Look up"'];

async function lookUpOrder(h: Harness, ref: string): Promise<void> {
  await h.open('#/lookup');
  await h.page.getByRole('searchbox', { name: 'Order reference' }).fill(ref);
  await h.page.getByRole('button', { name: 'Look up', exact: true }).click();
}

const openScreen = (hash: string) => (h: Harness) => h.open(hash);

async function openBatch(h: Harness, id: number): Promise<void> {
  await h.open('#/batch');
  await h.page.getByRole('button', { name: `Open batch ${id}` }).click();
  await h.page.getByRole('region', { name: `Batch ${id}` }).waitFor();
}

/** Loading a batch: the file, the rows pasted, the lanes, and checking them. */
const BATCH_LOAD = [
  'button "CSV file"',
  'textbox "Or paste the rows"',
  'spinbutton "Orders at a time"',
  'button "Check the rows"',
];
const BATCH_READ = [/^button "Open batch \d+"$/];

export const FENCE_STATES: readonly FenceState[] = [
  {
    name: 'orders: a sale looked up',
    need: 'money',
    gateway: true,
    reach: (h) => lookUpOrder(h, 'demo-sale-1003'),
    ready: /^Order \d+$/,
    readOnly: LOOKUP_FORM,
    changing: ['button "Void…"', 'button "Refund…"'],
  },
  {
    name: 'orders: a preauth looked up',
    need: 'money',
    gateway: true,
    reach: (h) => lookUpOrder(h, 'demo-auth-2002'),
    ready: /^Order \d+$/,
    readOnly: LOOKUP_FORM,
    changing: ['button "Capture…"', 'button "Cancel hold…"'],
  },
  {
    name: 'batch: an earlier batch open',
    need: 'money',
    reach: (h, s) => openBatch(h, s.earlierBatch),
    ready: 'Save the result CSV…',
    readOnly: [...BATCH_READ, 'button "Save the result CSV…"'],
    changing: BATCH_LOAD,
  },
  {
    name: 'batch: loaded, not sent',
    need: 'money',
    reach: (h, s) => openBatch(h, s.readyBatch),
    ready: /^Send 2 rows…$/,
    readOnly: BATCH_READ,
    changing: [...BATCH_LOAD, 'button "Send 2 rows…"', 'button "Cancel the batch…"'],
  },
  {
    name: 'batch: paused',
    need: 'money',
    reach: (h, s) => openBatch(h, s.pausedBatch),
    ready: /^Resume$/,
    readOnly: [...BATCH_READ, 'button "Save the result CSV…"'],
    changing: [...BATCH_LOAD, 'button "Resume"', 'button "Cancel the batch…"'],
  },
  {
    name: 'payouts',
    need: 'money',
    reach: openScreen('#/payouts'),
    ready: 'Send payout…',
    readOnly: [],
    changing: ['textbox "Card number"', 'button "Send payout…"'],
  },
  {
    name: 'payouts to pay',
    need: 'money',
    reach: openScreen('#/payouts-to-pay'),
    ready: 'No checked payout is waiting to be paid.',
    readOnly: [],
    changing: [],
  },
  {
    name: 'rebill',
    need: 'money',
    reach: openScreen('#/rebill'),
    ready: 'Charge card…',
    readOnly: [],
    changing: ['textbox "Card reference"', 'button "Charge card…"'],
  },
  {
    name: 'subscriptions',
    need: 'money',
    reach: openScreen('#/recurring'),
    ready: 'Set up subscription…',
    readOnly: [],
    changing: ['textbox "Amount per charge"', 'button "Set up subscription…"'],
  },
  {
    name: 'payment links',
    need: 'money',
    reach: openScreen('#/pay-link'),
    ready: 'No payment link yet on this profile.',
    readOnly: [/^button "Copy the link for .*"$/, /^button "QR code of the link for .*"$/],
    changing: ['textbox "Amount"', 'button "Make link…"'],
  },
  {
    name: 'card references',
    need: 'money',
    reach: openScreen('#/card-info'),
    ready: 'Save card…',
    // Reading a card reference is a look-up (CARDINFO); saving a card is fenced.
    readOnly: ['textbox "Card reference"', 'button "Read card"'],
    changing: ['textbox "orderid of the approved payment"', 'button "Save card…"'],
  },
  {
    name: 'profiles',
    need: 'admin',
    reach: openScreen('#/profiles'),
    ready: /^Test connection$/,
    // A status request for a made-up order: the gateway answers, nothing changes. A shared
    // profile's control key for this desk goes to this desk's keychain only (any group keeps
    // its own; support checks callbacks with it); its Save button waits for a key typed.
    // (A pattern: the field is there only on a team's shared profile.)
    readOnly: ['button "Test connection"', /^textbox "Control key for this desk"$/],
    changing: ['button "New profile"'],
  },
  {
    name: 'keys',
    need: 'admin',
    reach: openScreen('#/keys'),
    ready: 'Copy public key',
    readOnly: [
      'combobox "Key for profile"',
      'button "Save public_key.pem…"',
      'button "Copy public key"',
      'textbox "Public key (PEM)"',
    ],
    changing: ['button "Generate new key…"'],
  },
  {
    name: 'backups',
    need: 'backups',
    reach: openScreen('#/backups'),
    // The folder in use, read from main (the screen itself shows before its data).
    ready: /By default: .+backups\.$/,
    // Backing up now only adds the copy the schedule makes; the bundle is saving. (Restore…
    // appears once a backup is listed; Use this folder waits for a path typed.)
    readOnly: ['button "Back up now"', 'button "Save support bundle…"'],
    changing: ['button "Choose folder…"', 'textbox "Backup folder"'],
  },
];

/**
 * Every visible form control in the main area (not the app's header or navigation), as
 * `role "name"` and whether it can be used. Disabled includes a control in a disabled fieldset.
 */
export async function controlsOf(page: Page): Promise<{ control: string; enabled: boolean }[]> {
  const controls = page.locator('main').locator('button, input, select, textarea');
  const found: { control: string; enabled: boolean }[] = [];
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    const snapshot = await control.ariaSnapshot();
    const first = /^- (\w+)(?: "((?:[^"\\]|\\.)*)")?/.exec(snapshot.split('\n')[0] ?? '');
    found.push({
      control: first ? `${first[1]} "${first[2] ?? ''}"` : snapshot,
      enabled: await control.isEnabled(),
    });
  }
  return found;
}

const matches = (known: readonly (string | RegExp)[], control: string) =>
  known.some((k) => (typeof k === 'string' ? k === control : k.test(control)));

/**
 * What is wrong with a state's controls. Fenced: any enabled control not known to be read-only
 * (a changing control that forgot the fence), a known read-only control not there to use, a
 * changing control not on screen (the state was not reached). Let through: a changing control
 * not there to use.
 */
export async function fenceProblems(
  page: Page,
  state: FenceState,
  fenced: boolean,
  /** False where the screen has nothing to show (no profile): only the left-on check. */
  shown = true,
): Promise<string[]> {
  const controls = await controlsOf(page);
  const enabled = controls.filter((c) => c.enabled).map((c) => c.control);
  const all = controls.map((c) => c.control);
  if (!fenced)
    return state.changing
      .filter((c) => !enabled.includes(c))
      .map((c) => `${c} is not there to use`);
  const leftOn = enabled.filter((c) => !matches(state.readOnly, c));
  const readOnlyMissing = shown
    ? state.readOnly.filter((k): k is string => typeof k === 'string' && !enabled.includes(k))
    : [];
  const changingMissing = shown ? state.changing.filter((c) => !all.includes(c)) : [];
  return [
    ...leftOn.map((c) => `${c} is enabled and not known to be read-only`),
    ...readOnlyMissing.map((c) => `${c} is not there to use`),
    ...changingMissing.map((c) => `${c} is not on screen (the state was not reached)`),
  ];
}

/**
 * Walks `states` in the page. `reasons` holds the fence's sentence for each need the person may
 * not (the line the walk waits for); a need without one is let through. Returns the problems by
 * state name: {} when the fence holds where it must and lets through where it may.
 */
export async function walkFence(
  h: Harness,
  seeded: Seeded,
  reasons: Partial<Record<Need, string>>,
  states: readonly FenceState[] = FENCE_STATES,
  ready: Partial<Record<string, string | RegExp>> = {},
): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  for (const state of states) {
    await state.reach(h, seeded);
    const reason = reasons[state.need];
    if (reason !== undefined)
      await h.page.getByRole('note').filter({ hasText: reason }).first().waitFor();
    await h.page
      .getByText(ready[state.name] ?? state.ready)
      .first()
      .waitFor();
    if (reason === undefined && (await h.page.getByRole('note').count()) > 0)
      problems[state.name] = [
        `fenced, saying ${await h.page.getByRole('note').first().innerText()}`,
      ];
    const found = await fenceProblems(h.page, state, reason !== undefined);
    if (found.length > 0) problems[state.name] = [...(problems[state.name] ?? []), ...found];
  }
  return problems;
}
