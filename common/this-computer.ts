// Whether a team database's host is this computer, where a connection without TLS crosses no
// network: main refuses a plain connection to any other host, and Settings -> Team journal warns
// while the host is typed. Kept apart from the team contract's zod schemas so that the screen
// can ask without loading them.

const THIS_COMPUTER = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether a host is this computer, where a connection without TLS crosses no network. */
export function isThisComputer(host: string): boolean {
  return THIS_COMPUTER.has(host.trim().toLowerCase());
}

/** Why a plain (no TLS) connection to `host` is refused, or undefined when it is this computer. */
export function plainConnectionProblem(host: string): string | undefined {
  if (isThisComputer(host)) return undefined;
  return `A connection without TLS is allowed only to this computer (localhost, 127.0.0.1 or ::1); ${host} is another computer, so the password and the journal would cross the network in clear. Choose "TLS, certificate verified", and paste your company's CA certificate if the server's certificate is signed by it.`;
}
