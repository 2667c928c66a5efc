// Placeholder while the Profiles screen is built in this session; replaced before it lands.
export function ProfilesScreen(_props: { orderRef?: string; preset?: string }) {
  return <h1>Profiles</h1>;
}
