// @vitest-environment jsdom
// The outcome of a payout, charge, subscription or link (screens/money/ActionOutcome) under the
// role fence: "Ask the gateway again" sends the request again and "New payout" leads to sending,
// so a person moved from finance to support while the outcome is on screen loses both at once;
// "Back to the list" only closes and stays.

import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RoleFence } from '../../../renderer/src/components/RoleFence';
import { createQueryClient } from '../../../renderer/src/queryClient';
import { sessionKey } from '../../../renderer/src/session';
import { ActionOutcome } from '../../../renderer/src/money/ActionOutcome';
import type { MoneyAction, Phase } from '../../../renderer/src/money/useMoneyAction';

let groups: string[];

beforeEach(() => {
  groups = ['paydesk_finance'];
  vi.stubGlobal('paydesk', {
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
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function action(phase: Phase): MoneyAction<{ clientOrderId: string }> {
  return {
    clientOrderId: 'pd-1',
    phase,
    request: { clientOrderId: 'pd-1' },
    entry: undefined,
    replayed: false,
    stopped: undefined,
    sendError: new Error('No answer in time.'),
    settled: false,
    busy: phase === 'lost',
    problems: {},
    problemOf: () => undefined,
    submit: vi.fn(() => true),
    clearProblem: vi.fn(),
    review: vi.fn(),
    back: vi.fn(),
    confirm: vi.fn(),
    askAgain: vi.fn(() => Promise.resolve()),
    startOver: vi.fn(),
  };
}

function renderOutcome(outcome: MoneyAction<{ clientOrderId: string }>, onClose = vi.fn()) {
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <RoleFence need="money">
        <ActionOutcome action={outcome} what="The payout" newLabel="New payout" />
        <ActionOutcome
          action={outcome}
          what="The payout"
          close={{ label: 'Back to the list', onClose }}
        />
      </RoleFence>
    </QueryClientProvider>,
  );
  return async () => {
    groups = ['paydesk_support'];
    await client.invalidateQueries({ queryKey: sessionKey });
  };
}

describe('ActionOutcome under the role fence', () => {
  it('a lost answer: "Ask the gateway again" works for finance and goes off at once when demoted', async () => {
    const lost = action('lost');
    const demote = renderOutcome(lost);
    const [askAgain] = screen.getAllByRole('button', { name: 'Ask the gateway again' });
    await waitFor(() => expect(askAgain).toHaveProperty('disabled', false));
    fireEvent.click(askAgain!);
    expect(lost.askAgain).toHaveBeenCalledTimes(1);

    await demote();
    await waitFor(() => expect(askAgain).toHaveProperty('disabled', true));
    expect(screen.getByRole('note').textContent).toBe(
      'Your login ann is in paydesk_support: looking up only.',
    );
    fireEvent.click(askAgain!);
    expect(lost.askAgain).toHaveBeenCalledTimes(1);
  });

  it('refused: "New payout" goes off when demoted; "Back to the list" still closes', async () => {
    const refused = action('refused');
    const onClose = vi.fn();
    const demote = renderOutcome(refused, onClose);
    const again = screen.getByRole('button', { name: 'New payout' });
    await waitFor(() => expect(again).toHaveProperty('disabled', false));

    await demote();
    await waitFor(() => expect(again).toHaveProperty('disabled', true));
    fireEvent.click(again);
    expect(refused.startOver).not.toHaveBeenCalled();
    const back = screen.getByRole('button', { name: 'Back to the list' });
    expect(back).toHaveProperty('disabled', false);
    fireEvent.click(back);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
