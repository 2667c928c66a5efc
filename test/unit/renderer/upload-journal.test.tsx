// @vitest-environment jsdom
// The upload of this desk's journal in jsdom (renderer/src/components/UploadLocalJournal.tsx):
// blocked while a profile has no shared counterpart, the person's choice sent as the map, the
// result said in counts.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { UploadLocalJournal } from '../../../renderer/src/components/UploadLocalJournal';
import { ActiveProfileProvider } from '../../../renderer/src/profile-context';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sharedEur = {
  id: 'p-eur',
  name: 'Shop EUR',
  environment: 'production',
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '1111',
  endpointKind: 'endpoint',
  login: 'shop',
  keyFingerprint: null,
  embedded: false,
  hasControlKey: true,
  hasPrivateKey: false,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
  team: {
    canEdit: false,
    updatedBy: 'ada',
    teamFingerprint: null,
    deskFingerprint: null,
    keyState: 'none',
    keyMessage: null,
  },
};

function planWith(sharedId: string | null) {
  return {
    entries: 3,
    sandbox: 1,
    unsettled: [],
    profiles: [
      {
        localId: 'local-old',
        name: 'Old USD',
        entries: 2,
        sharedId,
        sharedName: sharedId ? 'Shop EUR' : null,
        how: sharedId ? 'chosen' : null,
      },
    ],
    lastUpload: null,
  };
}

describe('UploadLocalJournal', () => {
  it('waits for a shared profile to be chosen, sends the choice, and says what it did', async () => {
    const plan = vi.fn(({ profileMap }: { profileMap: Record<string, string> }) =>
      Promise.resolve({ ok: true, data: planWith(profileMap['local-old'] ?? null) }),
    );
    const upload = vi.fn(() =>
      Promise.resolve({
        ok: true,
        data: {
          uploaded: 2,
          alreadyThere: 0,
          sandbox: 1,
          clashes: [],
          at: '2026-11-23T12:00:00.000Z',
          firstUploadAt: null,
        },
      }),
    );
    vi.stubGlobal('paydesk', {
      profiles: { list: () => Promise.resolve({ ok: true, data: [sharedEur] }) },
      team: { planLocalJournalUpload: plan, uploadLocalJournal: upload },
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <ActiveProfileProvider>
          <UploadLocalJournal />
        </ActiveProfileProvider>
      </QueryClientProvider>,
    );
    await screen.findByText(/has 3 entries, 1 of them on the built-in Sandbox/);
    const button = screen.getByRole('button', { name: "Upload this desk's journal" });
    expect((button as HTMLButtonElement).disabled).toBe(true);

    const select = await screen.findByLabelText('Shared profile for Old USD');
    await screen.findByRole('option', { name: 'Shop EUR' });
    fireEvent.change(select, { target: { value: 'p-eur' } });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await screen.findByText(
      '2 entries uploaded, 1 entry of the built-in Sandbox kept on this desk.',
    );
    expect(upload).toHaveBeenCalledWith({ profileMap: { 'local-old': 'p-eur' } });
  });
});
