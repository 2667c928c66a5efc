// Placeholder while the Keys screen is built in this session; replaced before it lands.
export function KeysScreen(_props: { orderRef?: string; preset?: string }) {
  return <h1>Keys</h1>;
}
