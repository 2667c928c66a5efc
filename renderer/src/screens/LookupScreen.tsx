// Placeholder while the Lookup screen is built in this session; replaced before it lands.
export function LookupScreen(_props: { orderRef?: string; preset?: string }) {
  return <h1>Lookup</h1>;
}
