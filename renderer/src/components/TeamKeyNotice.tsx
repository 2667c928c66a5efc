// On a team, a shared profile's key on this desk against the team's key (main/services/
// team-profiles.ts): the Profiles and Keys screens say when they differ, with both fingerprints
// and what to do. Nothing is shown for a local profile or when the keys are the same.

import type { ProfileView } from '../profile-context';

import { Notice } from './Notice';

export function TeamKeyNotice({ profile }: { profile: ProfileView }) {
  const team = profile.team;
  if (!team?.keyMessage) return null;
  const kind = team.keyState === 'team-has-none' ? 'info' : 'warning';
  return (
    <Notice kind={kind}>
      <strong>
        {team.keyState === 'differs'
          ? 'Not the team’s key. '
          : team.keyState === 'missing-here'
            ? 'The team’s key is not on this desk. '
            : 'No team key recorded. '}
      </strong>
      {team.keyMessage}
      <dl className="team-key-facts">
        <dt>Team's key</dt>
        <dd className="mono">{team.teamFingerprint ?? 'none recorded'}</dd>
        <dt>This desk's key</dt>
        <dd className="mono">{team.deskFingerprint ?? 'none'}</dd>
      </dl>
    </Notice>
  );
}

/** "Shared by the team" and who last changed it, for a shared profile's card. */
export function SharedProfileNote({ profile }: { profile: ProfileView }) {
  const team = profile.team;
  if (!team) return null;
  return (
    <span className="built-in">
      Shared by the team{team.updatedBy ? ` · last changed by ${team.updatedBy}` : ''}
      {team.canEdit ? '' : ' · only an admin changes it'}
    </span>
  );
}
