// @vitest-environment jsdom
// The window before the services have started and while Paydesk closes
// (renderer/src/lifecycle.tsx): the step under way, the keychain's wait with its two choices,
// the screens once main says ready, and the sentence of a reloaded window.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { LifecycleData } from '../../../common/contract';
import { LifecycleGate } from '../../../renderer/src/lifecycle';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** window.paydesk as the preload builds it, answering lifecycle.* and pushing its event. */
function bridge(first: LifecycleData) {
  let push: (state: LifecycleData) => void = () => undefined;
  const answer = () => Promise.resolve({ ok: true, data: first });
  const api = {
    lifecycle: { state: vi.fn(answer), retryKeychain: vi.fn(answer), skipKeychain: vi.fn(answer) },
    on: (event: string, listener: (state: LifecycleData) => void) => {
      if (event === 'lifecycle') push = listener;
      return () => undefined;
    },
  };
  vi.stubGlobal('paydesk', api);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <LifecycleGate>
        <p>The screens</p>
      </LifecycleGate>
    </QueryClientProvider>,
  );
  return { api, push: (state: LifecycleData) => push(state) };
}

describe('the start and shutdown page', () => {
  it('shows the step under way, then the screens once main is ready', async () => {
    const { push } = bridge({ phase: 'starting', step: 'Opening the journal' });
    expect(await screen.findByText('Opening the journal…')).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Paydesk is starting' })).toBeDefined();
    expect(screen.queryByText('The screens')).toBeNull();
    push({ phase: 'ready', step: 'Ready' });
    expect(await screen.findByText('The screens')).toBeDefined();
  });

  it('offers Try again and Start without the keychain while the keychain has not answered', async () => {
    const { api } = bridge({
      phase: 'keychain-waiting',
      step: 'Waiting for the keychain',
      message: 'The system keychain has not answered.',
    });
    expect(await screen.findByText('The system keychain has not answered.')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(api.lifecycle.retryKeychain).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole('button', { name: 'Start without the keychain' }));
    expect(api.lifecycle.skipKeychain).toHaveBeenCalledOnce();
  });

  it('takes the screens away while Paydesk closes, saying what it finishes', async () => {
    const { push } = bridge({ phase: 'ready', step: 'Ready' });
    await screen.findByText('The screens');
    push({ phase: 'stopping', step: 'Closing the journal' });
    expect(await screen.findByRole('heading', { name: 'Paydesk is closing' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('Closing the journal…');
    expect(screen.queryByText('The screens')).toBeNull();
  });

  it('says so above the screens when the window was loaded again after a crash', async () => {
    bridge({ phase: 'ready', step: 'Ready', message: "Paydesk's window stopped unexpectedly." });
    expect(await screen.findByText('The screens')).toBeDefined();
    expect(screen.getByRole('alert').textContent).toContain('stopped unexpectedly');
  });
});
