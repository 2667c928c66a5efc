// @vitest-environment jsdom
// The action panel against a scripted bridge: what reaches window.paydesk, and when. A lost
// answer is retried only by a person, with the same action id; a refusal starts a new action;
// a bad form sends nothing. A person whose role changes while the panel is open (finance ->
// support) loses every send button at once, and can still close the panel.

import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { BridgeResult, JournalRow, OrderViewData } from '../../../common/contract';
import type { ProfileView } from '../../../renderer/src/profile-context';
import { createQueryClient } from '../../../renderer/src/queryClient';
import { ActionPanel } from '../../../renderer/src/screens/orders/ActionPanel';
import { keys } from '../../../renderer/src/queries';
import { sessionKey } from '../../../renderer/src/session';

const profile: ProfileView = {
  id: 'p1',
  name: 'Sandbox',
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:9/paynet',
  endpointId: '1111',
  endpointKind: 'endpoint',
  login: 'demo',
  keyFingerprint: null,
  payoutFourEyes: false,
  embedded: true,
  hasControlKey: true,
  hasPrivateKey: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const order: OrderViewData = {
  profileId: 'p1',
  orderId: '1000001',
  clientOrderId: 'demo-sale-1001',
  status: 'approved',
  state: 'approved',
  stateLabel: 'Approved',
  statusText: 'Approved: the gateway accepted it.',
  final: true,
  transactionType: 'sale',
  orderStage: 'sale_approved',
  currency: 'EUR',
  figureKind: 'payment',
  amount: '49.90',
  captured: null,
  capturedAtLeast: false,
  refunded: '0.00',
  refundedAtLeast: false,
  remainingCapturable: null,
  remainingRefundable: '49.90',
  card: {},
  threeDsPending: false,
  changedElsewhere: false,
  journalUnreadable: null,
  pending: [],
  captures: [],
  threeDsAddress: null,
  actions: {
    capture: { allowed: false, reason: 'Only a preauth can be captured.' },
    void: { allowed: true },
    refund: { allowed: true, max: '49.90' },
    cancel: { allowed: false, reason: 'Only a preauth hold can be cancelled.' },
  },
  email: null,
  readAt: '2026-01-01T00:00:00Z',
  created: { at: null, by: null, source: 'not-given', clientOrderId: null },
  remainingCapturableSaid: null,
  remainingRefundableSaid: null,
  timeline: [],
};

const row = (clientOrderId: string, patch: Partial<JournalRow>): JournalRow => ({
  id: 1,
  createdAt: '2026-01-01T00:00:00Z',
  operator: 'ann',
  profileId: 'p1',
  profileName: 'Sandbox',
  operation: 'RETURN',
  clientOrderId,
  orderId: '1000050',
  targetOrderId: '1000001',
  targetClientOrderId: null,
  action: 'partial-refund',
  actionLabel: 'Partial refund',
  amount: '10.00',
  currency: 'EUR',
  reason: 'Customer request',
  note: null,
  email: null,
  cardLastFour: null,
  state: 'acknowledged',
  status: null,
  errorMessage: null,
  finalAt: null,
  result: {},
  ...patch,
});

type Answer<T> = BridgeResult<T> | Promise<BridgeResult<T>>;
interface Script {
  refund: ((request: { clientOrderId: string }) => Answer<unknown>)[];
  journal: JournalRow[];
}

let script: Script;
let ids: number;
/** The Paydesk groups of the team login, as the team's database has them now. */
let groups: string[];
const LOOKING_UP_ONLY = 'Your login ann is in paydesk_support: looking up only.';
const calls = { openAction: 0, refund: [] as { clientOrderId: string; amount?: string }[] };

beforeAll(() => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  Object.defineProperty(window, 'paydesk', {
    configurable: true,
    value: {
      version: 'test',
      on: () => () => undefined,
      orders: {
        openAction: () => {
          calls.openAction += 1;
          ids += 1;
          return Promise.resolve({ ok: true, data: { clientOrderId: `pd-test-${ids}` } });
        },
        refund: (request: { clientOrderId: string; amount?: string }) => {
          calls.refund.push(request);
          const next = script.refund.shift();
          if (!next) throw new Error('an unexpected refund was sent');
          return Promise.resolve(next(request));
        },
      },
      session: {
        get: () =>
          Promise.resolve({
            ok: true,
            data: { journal: 'team', login: 'ann', desk: 'Front-1', groups, reachable: true },
          }),
      },
      // The local store is writable: the fence is the person's group alone.
      app: {
        status: () => Promise.resolve({ ok: true, data: { store: { writable: true, file: 'x' } } }),
      },
      journal: {
        search: () =>
          Promise.resolve({
            ok: true,
            data: { rows: script.journal, total: script.journal.length, offset: 0, limit: 10 },
          }),
      },
    },
  });
});

beforeEach(() => {
  ids = 0;
  groups = ['paydesk_finance'];
  calls.openAction = 0;
  calls.refund = [];
  script = { refund: [], journal: [] };
});

afterEach(() => cleanup());

function renderPanel(shown: OrderViewData = order, onProfile: ProfileView = profile) {
  const onClose = vi.fn();
  const client = createQueryClient();
  // What the app has read at its start, before anyone opens a panel: who the person is and
  // that the store is writable (until both are known, the fence keeps money off).
  client.setQueryData(sessionKey, {
    journal: 'team',
    login: 'ann',
    desk: 'Front-1',
    groups,
    reachable: true,
  });
  client.setQueryData(keys.status, { store: { writable: true, file: 'x' } });
  const panel = (o: OrderViewData) => (
    <QueryClientProvider client={client}>
      <ActionPanel kind="refund" order={o} profile={onProfile} onClose={onClose} />
    </QueryClientProvider>
  );
  const { rerender } = render(panel(shown));
  return {
    onClose,
    rerender: (o: OrderViewData) => rerender(panel(o)),
    /** The team's database moves the login to paydesk_support; the session's poll reads it. */
    demote: async () => {
      groups = ['paydesk_support'];
      await client.invalidateQueries({ queryKey: sessionKey });
    },
  };
}

/** The figures list of the panel: label -> value. */
function panelFigures(): Record<string, string> {
  const list = document.querySelector('.action-figures');
  const out: Record<string, string> = {};
  list?.querySelectorAll('div').forEach((d) => {
    out[d.querySelector('dt')?.textContent ?? ''] = d.querySelector('dd')?.textContent ?? '';
  });
  return out;
}

const amountField = () => screen.getByRole('textbox', { name: /^Amount to refund/ });
const reasonField = () => screen.getByRole('combobox', { name: 'Reason' });
const review = () => fireEvent.click(screen.getByRole('button', { name: 'Review refund' }));

async function fillAndConfirm(amount: string) {
  await waitFor(() => expect(calls.openAction).toBe(1));
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Review refund' })).not.toHaveProperty(
      'disabled',
      true,
    ),
  );
  fireEvent.change(amountField(), { target: { value: amount } });
  fireEvent.change(reasonField(), { target: { value: 'Customer request' } });
  review();
  fireEvent.click(await screen.findByRole('button', { name: `Refund ${amount} EUR` }));
}

describe('ActionPanel', () => {
  it('starts at what is left, and refuses a bad form next to the field without sending', async () => {
    renderPanel();
    expect((amountField() as HTMLInputElement).value).toBe('49.90');
    expect(document.activeElement).toBe(amountField());
    await waitFor(() => expect(calls.openAction).toBe(1));

    fireEvent.change(amountField(), { target: { value: '50.00' } });
    review();
    expect(
      await screen.findByText('That is more than what is left: at most 49.90 EUR.'),
    ).toBeTruthy();
    expect(screen.getByText('Choose a reason for the refund.')).toBeTruthy();
    expect(document.activeElement).toBe(amountField());
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.change(amountField(), { target: { value: '10.00' } });
    fireEvent.change(reasonField(), { target: { value: 'Other' } });
    review();
    expect(await screen.findByText(/write a note/)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Note/ }));

    // Card data typed into the note is refused next to it, before any confirmation.
    fireEvent.change(screen.getByRole('textbox', { name: /^Note/ }), {
      target: { value: 'customer card 4111 1111 1111 1111' },
    });
    review();
    expect(await screen.findByText(/looks like a card number/)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Note/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.refund).toHaveLength(0);
  });

  it('after a lost answer, "Try again" resends the same action id, and only when pressed', async () => {
    const lost = {
      ok: false as const,
      error: {
        code: 'TIMEOUT',
        message: 'No answer in time.',
        delivery: 'may-have-reached' as const,
      },
    };
    script.refund.push(() => lost);
    script.refund.push(({ clientOrderId }) => ({
      ok: true,
      data: { entry: row(clientOrderId, { state: 'acknowledged' }), replayed: true },
    }));
    renderPanel();
    await fillAndConfirm('10.00');

    expect(await screen.findByText(/may or may not have reached the gateway/)).toBeTruthy();
    expect(screen.getByText(/No answer in time\./)).toBeTruthy();
    // Nothing happens by itself.
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.refund).toHaveLength(1);

    script.journal = [row('pd-test-1', { state: 'final', status: 'approved' })];
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Refund of 10.00 EUR approved.')).toBeTruthy();
    expect(calls.refund.map((r) => r.clientOrderId)).toEqual(['pd-test-1', 'pd-test-1']);
    expect(calls.refund.map((r) => r.amount)).toEqual(['10.00', '10.00']);
    expect(calls.openAction).toBe(1);
    expect(screen.getByText(/already been sent once; nothing was sent again/)).toBeTruthy();
  });

  it('the team database refusing the login\'s role: its sentence on the form, nothing pending, no "Try again"', async () => {
    const sentence =
      'Your team login sam is in paydesk_support, so it cannot refund: only paydesk_finance moves money. Nothing was sent or changed.';
    script.refund.push(() => ({
      ok: false,
      error: {
        code: 'STORE',
        message: sentence,
        details: { storeCode: 'NOT_ALLOWED' },
        delivery: 'nothing-sent',
      },
    }));
    renderPanel();
    await fillAndConfirm('10.00');
    expect(await screen.findByText(sentence)).toBeTruthy();
    expect(screen.queryByText(/may or may not have reached the gateway/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    // Back on the form, with what was typed, to try again once the role is fixed.
    expect((amountField() as HTMLInputElement).value).toBe('10.00');
    expect(calls.refund).toHaveLength(1);
  });

  it('any failure the main process says came before sending: "Nothing was sent", the same id kept', async () => {
    // A database rule broken at the write-ahead (a desk's own Sandbox on a team journal): the
    // store code alone says nothing about sending; the main process knows nothing left.
    const sentence = 'Actions on this desk’s own profiles cannot be journaled. Nothing was sent.';
    const constraint = { code: 'STORE', message: sentence, details: { storeCode: 'CONSTRAINT' } };
    script.refund.push(() => ({ ok: false, error: { ...constraint, delivery: 'nothing-sent' } }));
    script.refund.push(() => ({
      ok: false,
      error: { ...constraint, delivery: 'may-have-reached' },
    }));
    renderPanel();
    await fillAndConfirm('10.00');
    expect(await screen.findByText('Nothing was sent:')).toBeTruthy();
    expect(screen.getByText(sentence)).toBeTruthy();
    expect(screen.queryByText(/may or may not have reached the gateway/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect((amountField() as HTMLInputElement).value).toBe('10.00');

    // The same store error without the main process's word: it may have left.
    review();
    fireEvent.click(await screen.findByRole('button', { name: 'Refund 10.00 EUR' }));
    expect(await screen.findByText(/may or may not have reached the gateway/)).toBeTruthy();
    expect(calls.refund.map((r) => r.clientOrderId)).toEqual(['pd-test-1', 'pd-test-1']);
  });

  it('demoted to support while "Try again" shows: it is disabled at once, saying why; Close still closes', async () => {
    script.refund.push(() => ({
      ok: false,
      error: { code: 'TIMEOUT', message: 'No answer in time.', delivery: 'may-have-reached' },
    }));
    const { demote, onClose } = renderPanel();
    await fillAndConfirm('10.00');
    const tryAgain = await screen.findByRole('button', { name: 'Try again' });
    expect(tryAgain).toHaveProperty('disabled', false);

    await demote();
    await waitFor(() => expect(tryAgain).toHaveProperty('disabled', true));
    expect(screen.getByRole('note').textContent).toBe(LOOKING_UP_ONLY);
    expect(tryAgain.getAttribute('aria-describedby')).toBe(screen.getByRole('note').id);
    fireEvent.click(tryAgain);
    expect(calls.refund).toHaveLength(1);
    const close = screen.getByRole('button', { name: 'Close' });
    expect(close).toHaveProperty('disabled', false);
    fireEvent.click(close);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('demoted while confirming, or while filling in: the confirm button and the form go off at once; Go back and Close stay', async () => {
    const { demote } = renderPanel();
    await waitFor(() => expect(calls.openAction).toBe(1));
    fireEvent.change(reasonField(), { target: { value: 'Returned goods' } });
    review();
    const dialog = await screen.findByRole('dialog', { name: 'Refund 49.90 EUR?' });
    const confirm = screen.getByRole('button', { name: 'Refund 49.90 EUR' });
    expect(confirm).toHaveProperty('disabled', false);

    await demote();
    await waitFor(() => expect(confirm).toHaveProperty('disabled', true));
    // The dialog says why itself: the page's line is behind the modal.
    expect(dialog.textContent).toContain(LOOKING_UP_ONLY);
    fireEvent.submit(confirm);
    expect(calls.refund).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Back on the form: its fields and Review are off, Close is not.
    expect(screen.getByRole('button', { name: 'Review refund' })).toHaveProperty('disabled', true);
    // (In the fenced fieldset: disabled by it, not by their own attribute.)
    expect(amountField().matches(':disabled')).toBe(true);
    expect(reasonField().matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Close' })).toHaveProperty('disabled', false);
    expect(calls.refund).toHaveLength(0);
  });

  it('the database refusing the role re-reads it at once: the form greys without waiting for the poll', async () => {
    const sentence =
      'Your team login ann is in paydesk_support, so it cannot refund: only paydesk_finance moves money. Nothing was sent or changed.';
    script.refund.push(() => {
      // A DBA moved the login to support a moment ago; the screen does not know yet.
      groups = ['paydesk_support'];
      return {
        ok: false,
        error: {
          code: 'STORE',
          message: sentence,
          details: { storeCode: 'NOT_ALLOWED' },
          delivery: 'nothing-sent',
        },
      };
    });
    renderPanel();
    await fillAndConfirm('10.00');
    expect(await screen.findByText(sentence)).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Review refund' })).toHaveProperty(
        'disabled',
        true,
      ),
    );
    expect(screen.getByRole('note').textContent).toBe(LOOKING_UP_ONLY);
    expect(calls.refund).toHaveLength(1);
  });

  it('after the gateway refused, a corrected attempt is a new action with a new id', async () => {
    script.refund.push(() => ({
      ok: false,
      error: {
        code: 'GATEWAY_REFUSED',
        message: 'The gateway refused the request: above what is left to return, 30.00 EUR.',
        delivery: 'gateway-refused',
      },
    }));
    script.refund.push(({ clientOrderId }) => ({
      ok: true,
      data: { entry: row(clientOrderId, { amount: '30.00' }), replayed: false },
    }));
    renderPanel();
    await fillAndConfirm('49.90');
    expect(await screen.findByText(/above what is left to return, 30\.00 EUR/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Change and send again' }));
    await waitFor(() => expect(calls.openAction).toBe(2));
    fireEvent.change(amountField(), { target: { value: '30.00' } });
    review();
    fireEvent.click(await screen.findByRole('button', { name: 'Refund 30.00 EUR' }));
    expect(await screen.findByText(/It stays pending/)).toBeTruthy();
    expect(calls.refund.map((r) => r.clientOrderId)).toEqual(['pd-test-1', 'pd-test-2']);
  });

  it('focus starts on Go back, never on the refund; Escape goes back to the form, a second Escape closes the panel; nothing is sent', async () => {
    script.refund.push(({ clientOrderId }) => ({
      ok: true,
      data: { entry: row(clientOrderId, {}), replayed: false },
    }));
    const { onClose } = renderPanel();
    await waitFor(() => expect(calls.openAction).toBe(1));
    fireEvent.change(reasonField(), { target: { value: 'Returned goods' } });
    review();
    const dialog = await screen.findByRole('dialog', { name: 'Refund 49.90 EUR?' });
    expect(dialog.textContent).toContain('cannot be undone');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Go back' }));
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(calls.refund).toHaveLength(0);
  });

  it('after a refund settles, the panel shows the order’s new figures, not the ones confirmed', async () => {
    script.refund.push(({ clientOrderId }) => ({
      ok: true,
      data: { entry: row(clientOrderId, { state: 'final', status: 'approved' }), replayed: false },
    }));
    const { rerender } = renderPanel();
    await fillAndConfirm('10.00');
    expect(await screen.findByText('Refund of 10.00 EUR approved.')).toBeTruthy();
    rerender({
      ...order,
      state: 'partly-refunded',
      stateLabel: 'Partly refunded',
      refunded: '10.00',
      remainingRefundable: '39.90',
      actions: { ...order.actions, refund: { allowed: true, max: '39.90' } },
    });
    expect(panelFigures()).toMatchObject({
      'Already refunded': '10.00 EUR',
      'Left to refund': '39.90 EUR',
    });
  });

  it('with refunds made outside Paydesk, nothing is pre-filled and no maximum is claimed', async () => {
    renderPanel({
      ...order,
      state: 'partly-refunded',
      stateLabel: 'Partly refunded',
      refundedAtLeast: true,
      remainingRefundable: null,
      changedElsewhere: true,
      actions: { ...order.actions, refund: { allowed: true } },
    });
    await waitFor(() => expect(calls.openAction).toBe(1));
    expect((amountField() as HTMLInputElement).value).toBe('');
    expect(panelFigures()).toMatchObject({
      'Already refunded': 'Unknown: the gateway knows',
      'Left to refund': 'Unknown: the gateway knows',
    });
    expect(screen.getByText(/only the gateway knows what is left/)).toBeTruthy();
    review();
    expect(await screen.findByText('Enter an amount.')).toBeTruthy();
  });

  it('confirms and sends the normalised amount: " 12 " is "Refund 12.00 EUR?"', async () => {
    script.refund.push(({ clientOrderId }) => ({
      ok: true,
      data: { entry: row(clientOrderId, { amount: '12.00' }), replayed: false },
    }));
    renderPanel();
    await waitFor(() => expect(calls.openAction).toBe(1));
    fireEvent.change(amountField(), { target: { value: ' 12 ' } });
    fireEvent.change(reasonField(), { target: { value: 'Customer request' } });
    review();
    expect(await screen.findByRole('dialog', { name: 'Refund 12.00 EUR?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Refund 12.00 EUR' }));
    await waitFor(() => expect(calls.refund).toHaveLength(1));
    expect(calls.refund[0]!.amount).toBe('12.00');
  });

  it('on production, focus starts in a box where the amount must be typed; Enter alone sends nothing', async () => {
    script.refund.push(({ clientOrderId }) => ({
      ok: true,
      data: { entry: row(clientOrderId, { amount: '1,234.50' }), replayed: false },
    }));
    renderPanel(
      {
        ...order,
        amount: '2000.00',
        remainingRefundable: '2000.00',
        actions: { ...order.actions, refund: { allowed: true, max: '2000.00' } },
      },
      { ...profile, name: 'Shop live', environment: 'production' },
    );
    await waitFor(() => expect(calls.openAction).toBe(1));
    fireEvent.change(amountField(), { target: { value: '1234.5' } });
    fireEvent.change(reasonField(), { target: { value: 'Customer request' } });
    review();
    await screen.findByRole('dialog', { name: 'Refund 1,234.50 EUR?' });
    const typed = screen.getByRole('textbox', { name: /To confirm, type the amount/ });
    expect(document.activeElement).toBe(typed);
    const confirm = screen.getByRole('button', { name: 'Refund 1,234.50 EUR' });
    expect(confirm).toHaveProperty('disabled', true);
    // Enter in the empty box, and a wrong amount, send nothing.
    fireEvent.submit(typed);
    fireEvent.change(typed, { target: { value: '1234.05' } });
    fireEvent.submit(typed);
    expect(confirm).toHaveProperty('disabled', true);
    expect(calls.refund).toHaveLength(0);
    // The amount as the clerk would write it (with or without the trailing zero) matches.
    fireEvent.change(typed, { target: { value: '1234.5' } });
    expect(confirm).toHaveProperty('disabled', false);
    fireEvent.submit(typed);
    await waitFor(() => expect(calls.refund).toHaveLength(1));
    expect(calls.refund[0]!.amount).toBe('1234.50');
  });
});
