// What each person may do, as the screens show it: everything on the desk's own journal; on a
// team, what their Paydesk group allows; nothing while the team's database is away or the local
// database is read-only. Each refusal is one sentence naming the login and its group.

import { describe, expect, it } from 'vitest';

import { allowedFor } from '../../../renderer/src/session';

const team = (groups: string[], reachable = true) => ({
  journal: 'team' as const,
  login: 'tom',
  desk: 'Front-1',
  groups,
  reachable,
});

describe('allowedFor', () => {
  it('allows everything on the local journal, as before team mode', () => {
    const local = {
      journal: 'local' as const,
      login: 'os',
      desk: null,
      groups: [],
      reachable: true,
    };
    expect(allowedFor(local, true)).toEqual({ money: { allowed: true }, admin: { allowed: true } });
  });

  it('support looks up only; finance moves money; admins change profiles and keys', () => {
    expect(allowedFor(team(['paydesk_support']), true)).toEqual({
      money: { allowed: false, reason: 'Your login tom is in paydesk_support: looking up only.' },
      admin: {
        allowed: false,
        reason:
          'Your login tom is in paydesk_support: only paydesk_admin changes profiles and keys.',
      },
    });
    expect(allowedFor(team(['paydesk_finance']), true)).toMatchObject({
      money: { allowed: true },
      admin: { allowed: false },
    });
    expect(allowedFor(team(['paydesk_admin']), true)).toEqual({
      money: {
        allowed: false,
        reason:
          'Your login tom is in paydesk_admin: profiles and keys, no money (that is paydesk_finance).',
      },
      admin: { allowed: true },
    });
    expect(allowedFor(team(['paydesk_finance', 'paydesk_admin']), true)).toEqual({
      money: { allowed: true },
      admin: { allowed: true },
    });
    expect(allowedFor(team([]), true).money).toEqual({
      allowed: false,
      reason: 'Your login tom is in no Paydesk group: looking up only.',
    });
  });

  it('allows nothing while the team database is away, or the local database is read-only', () => {
    const away = allowedFor(team(['paydesk_finance'], false), true);
    expect(away.money).toEqual({
      allowed: false,
      reason:
        'The team journal cannot be reached: nothing that moves money is sent until it is back.',
    });
    expect(away.admin.allowed).toBe(false);
    const readOnly = allowedFor(undefined, false);
    expect(readOnly.money).toEqual({
      allowed: false,
      reason: 'Paydesk is read-only (its database cannot be written): nothing is sent or changed.',
    });
    expect(readOnly.admin.allowed).toBe(false);
  });
});
