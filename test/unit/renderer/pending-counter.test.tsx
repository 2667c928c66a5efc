// @vitest-environment jsdom
// The header's pending count (renderer/src/App.tsx PendingCounter) never says 0 for a
// count it has not read: "… pending" until the journal answers, "? pending" when it could not.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PendingCounter } from '../../../renderer/src/App';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** window.paydesk answering journal.search with what `answer` gives, when it gives it. */
function counter(answer: () => Promise<unknown>) {
  vi.stubGlobal('paydesk', { journal: { search: vi.fn(answer) } });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PendingCounter />
    </QueryClientProvider>,
  );
  return Object.assign(() => screen.getByRole('link'), { client });
}

const unreadable = () =>
  Promise.resolve({
    ok: false,
    error: { code: 'UNREACHABLE', message: 'The team database does not answer.' },
  });

describe('the header pending count', () => {
  it('says it is counting until the journal answers, then the count', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const link = counter(() => new Promise((resolve) => (answer = resolve)));
    expect(link().textContent).toBe('… pending');
    expect(link().getAttribute('aria-label')).toBe(
      "Counting the operations waiting for the gateway's final status",
    );
    answer({ ok: true, data: { total: 3, rows: [] } });
    expect(await screen.findByText('3 pending')).toBeDefined();
    expect(link().className).toContain('has-pending');
    expect(link().getAttribute('aria-label')).toBe(
      "3 operations waiting for the gateway's final status",
    );
  });

  it('says the count is not known when the journal cannot be read, never 0', async () => {
    const link = counter(unreadable);
    expect(await screen.findByText('? pending')).toBeDefined();
    expect(link().getAttribute('aria-label')).toBe(
      "The journal could not be read: the number of operations waiting for the gateway's final status is not known",
    );
    expect(screen.queryByText('0 pending')).toBeNull();
  });

  it('does not keep showing an earlier count once a read fails: it may have changed', async () => {
    let read: () => Promise<unknown> = () =>
      Promise.resolve({ ok: true, data: { total: 2, rows: [] } });
    const link = counter(() => read());
    expect(await screen.findByText('2 pending')).toBeDefined();
    read = unreadable;
    await link.client.refetchQueries();
    expect(await screen.findByText('? pending')).toBeDefined();
    expect(link().className).not.toContain('has-pending');
  });
});
