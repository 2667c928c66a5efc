// @vitest-environment jsdom
// The admin and journal screens' pieces in jsdom: the fingerprint laid out for the phone, the
// journal filter as the bridge wants it, and the profile form's field errors (from the schema
// before a call, from the bridge after one) with the control key never shown on edit.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ProfileForm } from '../../../renderer/src/screens/profiles/ProfileForm';
import {
  Fingerprint,
  fingerprintGroups,
  shortFingerprint,
} from '../../../renderer/src/components/Fingerprint';
import { EMPTY_DRAFT, filterOf } from '../../../renderer/src/screens/journal/JournalFilters';
import type { ProfileView } from '../../../renderer/src/profile-context';

const FP = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).toUpperCase()).join(':');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function withQueries(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function stubBridge(api: Record<string, Record<string, unknown>>) {
  vi.stubGlobal('paydesk', api);
}

describe('Fingerprint', () => {
  it('shows 64 hex digits as four lines of four groups', () => {
    expect(fingerprintGroups(FP)).toHaveLength(16);
    expect(fingerprintGroups(FP).every((g) => /^[0-9A-F]{4}$/.test(g))).toBe(true);
    render(<Fingerprint value={FP} />);
    const group = screen.getByRole('group', { name: 'SHA-256 fingerprint' });
    expect(group.children).toHaveLength(4);
    expect(group.textContent?.replace(/\s/g, '')).toBe(FP.replace(/:/g, ''));
    expect(shortFingerprint(FP)).toMatch(/^[0-9A-F]{4} [0-9A-F]{4} … [0-9A-F]{4} [0-9A-F]{4}$/);
  });
});

describe('journal filter', () => {
  it('maps the form to the bridge filter: pending, dates as local days, the end inclusive', () => {
    const result = filterOf({
      ...EMPTY_DRAFT,
      orderRef: '  1000001 ',
      state: 'pending',
      fromDay: '2025-03-01',
      toDay: '2025-03-31',
    });
    expect(result.errors).toBeUndefined();
    if (result.errors) return;
    expect(result.filter).toEqual({
      orderRef: '1000001',
      pending: true,
      from: new Date('2025-03-01T00:00:00').toISOString(),
      to: new Date('2025-04-01T00:00:00').toISOString(),
    });
    expect(filterOf({ ...EMPTY_DRAFT, state: 'refused' })).toEqual({
      filter: { state: 'refused' },
    });
  });

  it('refuses an end date before the start date', () => {
    expect(filterOf({ ...EMPTY_DRAFT, fromDay: '2025-03-02', toDay: '2025-03-01' })).toEqual({
      errors: { toDay: 'The end date is before the start date.' },
    });
  });
});

const PROFILE: ProfileView = {
  id: 'p1',
  name: 'Test EUR',
  environment: 'test',
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '2222',
  endpointKind: 'endpoint',
  login: 'merchant',
  keyFingerprint: null,
  payoutFourEyes: false,
  embedded: false,
  hasControlKey: true,
  hasPrivateKey: false,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

describe('ProfileForm', () => {
  it('shows the schema errors under their fields and calls nothing', async () => {
    const create = vi.fn();
    stubBridge({ profiles: { create } });
    render(withQueries(<ProfileForm onDone={vi.fn()} onCancel={vi.fn()} />));
    // Pressed at once: the check waits for the contract's schemas (their own chunk).
    fireEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(await screen.findByText('Give the profile a name.')).toBeTruthy();
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter the control key.')).toBeTruthy();
    expect(document.activeElement).toBe(name);
    expect(create).not.toHaveBeenCalled();
  });

  it('puts the bridge error under the field it names', async () => {
    const message = 'The base URL uses plain http://, which would send payment data unencrypted.';
    const create = vi.fn(() =>
      Promise.resolve({ ok: false, error: { code: 'PROFILE', message, field: 'baseUrl' } }),
    );
    stubBridge({ profiles: { create } });
    render(withQueries(<ProfileForm onDone={vi.fn()} onCancel={vi.fn()} />));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Test EUR' } });
    fireEvent.change(screen.getByLabelText('Base URL'), {
      target: { value: 'http://gate.example.com' },
    });
    fireEvent.change(screen.getByLabelText('Endpoint id'), { target: { value: '2222' } });
    fireEvent.change(screen.getByLabelText('Merchant login'), { target: { value: 'm' } });
    fireEvent.change(screen.getByLabelText('Control key'), { target: { value: 'KEY' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(screen.getByText(message)).toBeTruthy());
    const baseUrl = screen.getByLabelText('Base URL');
    expect(baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(baseUrl.getAttribute('aria-describedby')).toContain(
      screen.getByText(message).getAttribute('id'),
    );
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ baseUrl: 'http://gate.example.com', controlKey: 'KEY' }),
    );
  });

  it('on edit says the control key is stored and sends one only when replaced', async () => {
    const update = vi.fn((req: { profile: unknown }) =>
      Promise.resolve({ ok: true, data: { ...PROFILE, ...(req.profile as object) } }),
    );
    stubBridge({ profiles: { update, list: () => Promise.resolve({ ok: true, data: [] }) } });
    const onDone = vi.fn();
    render(withQueries(<ProfileForm profile={PROFILE} onDone={onDone} onCancel={vi.fn()} />));
    expect(screen.getByText('stored in the keychain')).toBeTruthy();
    expect(screen.queryByLabelText(/control key/i)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(update.mock.calls[0]?.[0].profile).not.toHaveProperty('controlKey');

    fireEvent.click(screen.getByRole('button', { name: 'Replace control key' }));
    fireEvent.change(screen.getByLabelText('New control key'), { target: { value: 'NEW' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(2));
    expect(update.mock.calls[1]?.[0].profile).toHaveProperty('controlKey', 'NEW');
  });
});
