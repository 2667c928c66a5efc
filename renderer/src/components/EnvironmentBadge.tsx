import type { ProfileView } from '../profile-context';

const LABEL: Record<ProfileView['environment'], string> = {
  production: 'Production: real money',
  test: 'Test',
  sandbox: 'Sandbox',
};

/** Production looks different at a glance: a red badge that says real money. */
export function EnvironmentBadge({ environment }: { environment: ProfileView['environment'] }) {
  return <span className={`env-badge env-${environment}`}>{LABEL[environment]}</span>;
}
