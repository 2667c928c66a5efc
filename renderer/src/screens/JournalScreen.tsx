// Placeholder while the Journal screen is built in this session; replaced before it lands.
export function JournalScreen(_props: { orderRef?: string; preset?: string }) {
  return <h1>Journal</h1>;
}
