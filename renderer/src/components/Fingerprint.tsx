// A key fingerprint laid out for reading aloud: 64 hex digits in 16 groups of four, four
// groups a line, so two people on the phone can say "line two: 3F0A C29B ..." and compare.
// The line numbers come from CSS, so copying the fingerprint copies only the hex.

export function fingerprintGroups(fingerprint: string): string[] {
  const hex = fingerprint.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return hex.match(/.{1,4}/g) ?? [];
}

export function Fingerprint({
  value,
  label = 'SHA-256 fingerprint',
}: {
  value: string;
  label?: string;
}) {
  const groups = fingerprintGroups(value);
  const lines: string[][] = [];
  for (let i = 0; i < groups.length; i += 4) lines.push(groups.slice(i, i + 4));
  return (
    <div className="fingerprint" role="group" aria-label={label}>
      {lines.map((line, i) => (
        <div className="fingerprint-line" key={i}>
          {line.map((group, j) => (
            <span className="fingerprint-group" key={j}>
              {group}{' '}
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}

/** The first and last bytes, for tables where the whole fingerprint would not fit. */
export function shortFingerprint(fingerprint: string): string {
  const groups = fingerprintGroups(fingerprint);
  if (groups.length <= 4) return groups.join(' ');
  return `${groups.slice(0, 2).join(' ')} … ${groups.slice(-2).join(' ')}`;
}
