// What each person may do, as the screens show it: everything on the desk's own journal; on a
// team, what their Paydesk group allows; nothing while the team's database is away or the local
// database is read-only, nor while who the person is has not been read yet. Each refusal is one
// sentence naming the login and its group, or what is not known yet and why.

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
    expect(allowedFor({ session: local, storeWritable: true })).toEqual({
      money: { allowed: true },
      admin: { allowed: true },
      backups: { allowed: true },
    });
  });

  it('support looks up only; finance moves money; admins change profiles and keys', () => {
    expect(allowedFor({ session: team(['paydesk_support']), storeWritable: true })).toEqual({
      money: { allowed: false, reason: 'Your login tom is in paydesk_support: looking up only.' },
      admin: {
        allowed: false,
        reason:
          'Your login tom is in paydesk_support: only paydesk_admin changes profiles and keys.',
      },
      backups: {
        allowed: false,
        reason:
          "Your login tom is in paydesk_support: only paydesk_admin chooses the backup folder and restores this desk's database. Backing up now and reading the list work for everyone.",
      },
    });
    expect(allowedFor({ session: team(['paydesk_finance']), storeWritable: true })).toMatchObject({
      money: { allowed: true },
      admin: { allowed: false },
      backups: { allowed: false },
    });
    expect(allowedFor({ session: team(['paydesk_admin']), storeWritable: true })).toEqual({
      money: {
        allowed: false,
        reason:
          'Your login tom is in paydesk_admin: profiles and keys, no money (that is paydesk_finance).',
      },
      admin: { allowed: true },
      backups: { allowed: true },
    });
    expect(
      allowedFor({ session: team(['paydesk_finance', 'paydesk_admin']), storeWritable: true }),
    ).toEqual({
      money: { allowed: true },
      admin: { allowed: true },
      backups: { allowed: true },
    });
    expect(allowedFor({ session: team([]), storeWritable: true }).money).toEqual({
      allowed: false,
      reason: 'Your login tom is in no Paydesk group: looking up only.',
    });
  });

  it('allows nothing while the team database is away, or the local database is read-only', () => {
    const away = allowedFor({ session: team(['paydesk_finance'], false), storeWritable: true });
    expect(away.money).toEqual({
      allowed: false,
      reason:
        'The team journal cannot be reached: nothing that moves money is sent until it is back.',
    });
    expect(away.admin.allowed).toBe(false);
    const readOnly = allowedFor({ session: undefined, storeWritable: false });
    expect(readOnly.money).toEqual({
      allowed: false,
      reason: 'Paydesk is read-only (its database cannot be written): nothing is sent or changed.',
    });
    expect(readOnly.admin.allowed).toBe(false);
    expect(away.backups).toEqual({
      allowed: false,
      reason:
        'The team journal cannot be reached, so your role cannot be read: choosing the backup folder and restoring wait until it is back.',
    });
  });

  it('backups: a read-only database does not fence restoring, which is how it is mended', () => {
    const local = {
      journal: 'local' as const,
      login: 'os',
      desk: null,
      groups: [],
      reachable: true,
    };
    expect(allowedFor({ session: local, storeWritable: false }).backups).toEqual({
      allowed: true,
    });
    expect(allowedFor({ session: team(['paydesk_admin']), storeWritable: false }).backups).toEqual({
      allowed: true,
    });
    expect(allowedFor({ session: undefined, storeWritable: false }).backups).toEqual({
      allowed: false,
      reason: 'Reading who you are and what you may do here…',
    });
  });

  it('allows nothing while the role is not known yet, and says why when it cannot be read', () => {
    const local = {
      journal: 'local' as const,
      login: 'os',
      desk: null,
      groups: [],
      reachable: true,
    };
    const reading = 'Reading who you are and what you may do here…';
    for (const known of [
      { session: undefined, storeWritable: true },
      { session: undefined, storeWritable: undefined },
      { session: local, storeWritable: undefined },
      { session: team(['paydesk_finance']), storeWritable: undefined },
    ]) {
      expect(allowedFor(known).money).toEqual({ allowed: false, reason: reading });
      expect(allowedFor(known).admin).toEqual({ allowed: false, reason: reading });
    }
    const failed = allowedFor({
      session: undefined,
      sessionError: new Error('The app is restarting'),
      storeWritable: true,
    });
    expect(failed.money).toEqual({
      allowed: false,
      reason:
        'Paydesk could not read who you are (The app is restarting): nothing is sent or changed until it can. It asks again in a few seconds.',
    });
    expect(failed.admin.allowed).toBe(false);
    const noStatus = allowedFor({
      session: local,
      storeWritable: undefined,
      statusError: new Error('no answer from main'),
    });
    expect(noStatus.money).toMatchObject({ allowed: false });
    expect(noStatus.money.allowed === false && noStatus.money.reason).toContain(
      'could not read its own state (no answer from main)',
    );
  });

  it('on a team, money waits for a shared profile whose control key this desk holds, saying so up front', () => {
    const finance = { session: team(['paydesk_finance']), storeWritable: true };
    const money = (profile: Parameters<typeof allowedFor>[0]['profile']) =>
      allowedFor({ ...finance, profile }).money;
    const sandbox = { name: 'Sandbox', shared: false, hasControlKey: true };
    const own =
      '"Sandbox" is this desk\'s own profile, and the team journal records only the team\'s shared profiles: nothing can be sent on it here.';
    expect(money({ ...sandbox, teamHasProfiles: false })).toEqual({
      allowed: false,
      reason: `${own} Your team has no shared profile yet: nothing can be sent until an admin creates one (Profiles → New profile) and you enter its control key on this desk. To practise meanwhile, ask an admin to share the team's sandbox (see the team guide).`,
    });
    expect(money({ ...sandbox, teamHasProfiles: true })).toEqual({
      allowed: false,
      reason: `${own} Choose one of the team's profiles in the header; to practise, ask an admin to share the team's sandbox (see the team guide), or stop using the team journal in Settings.`,
    });
    expect(money('none')).toEqual({
      allowed: false,
      reason:
        'Nothing can be sent yet: the team has no shared profile on this desk. An admin of your team creates one (Profiles → New profile); then enter its control key here.',
    });
    expect(
      money({ name: 'Shop EUR', shared: true, hasControlKey: false, teamHasProfiles: true }),
    ).toEqual({
      allowed: false,
      reason:
        'This desk holds no control key for "Shop EUR": nothing can be sent on it yet. Enter the key your admin gives you on Profiles, in “Control key for this desk” (it stays in this computer\'s keychain).',
    });
    expect(money('loading')).toEqual({ allowed: false, reason: 'Reading the team’s profiles…' });
    expect(
      money({ name: 'Shop EUR', shared: true, hasControlKey: true, teamHasProfiles: true }),
    ).toEqual({
      allowed: true,
    });
    // The desk's own journal records every profile: the Sandbox is the place to practise.
    expect(
      allowedFor({
        session: { journal: 'local', login: 'os', desk: null, groups: [], reachable: true },
        storeWritable: true,
        profile: { name: 'Sandbox', shared: false, hasControlKey: true, teamHasProfiles: false },
      }).money,
    ).toEqual({ allowed: true });
  });
});
