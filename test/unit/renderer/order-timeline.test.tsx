// @vitest-environment jsdom
// The order page's history names the profile of an entry made on another profile than the one
// the order was looked up with (one account seen through two profiles), as the profiles list
// names it, and says "a removed profile" where this desk no longer has it (on a team, a shared
// profile removed by an admin before this desk ever read it). From main's own view of the order
// (orderView) to what the screen says.

import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';

import { orderView } from '../../../main/services/orders/view';
import { OrderTimeline } from '../../../renderer/src/screens/orders/OrderTimeline';
import { journalEntry, statusAnswer } from '../../support/entries';

afterEach(cleanup);

const NAMES: Record<string, string> = { front: 'Shop front desk', back: 'Shop back office' };

it('names the other profile of an entry, or says it was removed', () => {
  const refund = (clientOrderId: string, profileId: string, at: string) =>
    journalEntry('RETURN', {
      clientOrderId,
      profileId,
      action: 'partial-refund',
      amountMinor: 500n,
      createdAt: at,
      operator: profileId === 'front' ? 'ann' : 'bob',
    });
  const view = orderView(
    'front',
    statusAnswer(),
    [
      refund('pd-front-1', 'front', '2026-01-01T10:00:00.000Z'),
      refund('pd-back-1', 'back', '2026-01-01T11:00:00.000Z'),
      refund('pd-gone-1', 'gone-profile-id', '2026-01-01T12:00:00.000Z'),
    ],
    undefined,
    (id) => NAMES[id],
  );
  render(<OrderTimeline order={view} />);

  const titles = screen
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.timeline-title')?.textContent ?? '');
  expect(titles.slice(0, 3)).toEqual([
    'Partial refund of 5.00 EUR by ann Approved',
    'Partial refund of 5.00 EUR by bob (on “Shop back office”) Approved',
    'Partial refund of 5.00 EUR by bob (on a removed profile) Approved',
  ]);
});
