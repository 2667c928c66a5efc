// Keychain failures as typed errors with a message that tells the user what to install or
// unlock. Secrets never reach these messages: the OS's own wording is kept as `detail` only after
// any secret that was being written has been scrubbed from it.

export class SecretStoreError extends Error {
  constructor(
    message: string,
    /** The OS keychain's own wording, for diagnostics; never contains a secret. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'SecretStoreError';
  }
}

export type UnavailableReason =
  /** keytar's native part could not load (libsecret missing, wrong build). */
  | 'not-installed'
  /** Linux: no D-Bus session bus to reach a Secret Service through. */
  | 'no-session-bus'
  /** Linux: a session bus, but nothing provides org.freedesktop.secrets. */
  | 'no-provider'
  /** The keychain exists but is locked, or its default collection does not exist yet. */
  | 'locked'
  /** The OS refused access (a denied prompt, a wrong keychain password). */
  | 'denied'
  /** Anything else the keychain said; the message carries the OS's words. */
  | 'failed';

export class SecretStoreUnavailableError extends SecretStoreError {
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    detail?: string,
  ) {
    super(message, detail);
    this.name = 'SecretStoreUnavailableError';
  }
}

const LINUX_SERVICE_HINT =
  'Install a Secret Service such as gnome-keyring (Debian/Ubuntu: sudo apt install gnome-keyring; KDE: kwallet with its Secret Service enabled; or KeePassXC with Secret Service integration)';

function guidance(reason: UnavailableReason, platform: NodeJS.Platform): string {
  const linux = platform !== 'darwin' && platform !== 'win32';
  switch (reason) {
    case 'not-installed':
      return linux
        ? 'Paydesk cannot use the system keychain: the libsecret library is missing. Install it (Debian/Ubuntu: sudo apt install libsecret-1-0) and a Secret Service such as gnome-keyring, then restart Paydesk.'
        : 'Paydesk cannot use the system keychain: its keychain module failed to load. Reinstall Paydesk.';
    case 'no-session-bus':
      return `Paydesk keeps keys in the system keychain (the Secret Service), but this session has no D-Bus session bus to reach it. Start Paydesk from a desktop session. ${LINUX_SERVICE_HINT} if none runs.`;
    case 'no-provider':
      return linux
        ? `Paydesk keeps keys in the system keychain, but no Secret Service is running. ${LINUX_SERVICE_HINT}, then log out and in again.`
        : 'Paydesk keeps keys in the system keychain, but the keychain could not be found. Open Keychain Access and check that the login keychain exists.';
    case 'locked':
      if (platform === 'darwin') {
        return 'The login keychain is locked. Unlock it in Keychain Access (or log in again), then try again.';
      }
      if (platform === 'win32') {
        return 'Windows Credential Manager is not available to Paydesk right now. Log in to Windows again, then try again.';
      }
      return 'The keychain is locked, or there is no default (login) keyring yet. Unlock or create the login keyring, for example in "Passwords and Keys" (Seahorse), then try again. Logging in with your password usually unlocks it.';
    case 'denied':
      return 'Access to the system keychain was refused. Allow Paydesk when the keychain asks, then try again.';
    case 'failed':
      return 'The system keychain reported an error, so Paydesk cannot read or store its keys.';
  }
}

export function unavailable(
  reason: UnavailableReason,
  platform: NodeJS.Platform = process.platform,
  detail?: string,
): SecretStoreUnavailableError {
  // For an error nobody anticipated, the OS's own words are the most useful thing to show.
  const message =
    reason === 'failed' && detail
      ? `${guidance(reason, platform)} It said: ${detail}`
      : guidance(reason, platform);
  return new SecretStoreUnavailableError(reason, message, detail);
}

// What keytar says, per platform. Linux texts were captured here: no DBUS_SESSION_BUS_ADDRESS,
// `dbus-run-session` with no provider, with gnome-keyring and no unlocked login keyring, and
// with the login collection locked. macOS texts come from SecCopyErrorMessageString.
const PATTERNS: readonly [RegExp, UnavailableReason][] = [
  [
    /Cannot autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Could not connect|No such file or directory.*bus|Failed to connect to socket/i,
    'no-session-bus',
  ],
  [
    /org\.freedesktop\.secrets was not provided|ServiceUnknown|was not provided by any \.service files/i,
    'no-provider',
  ],
  [
    /locked collection|is locked|collection\/login|Object does not exist at path|User interaction is not allowed|no default collection/i,
    'locked',
  ],
  [
    /Prompt dismissed|dismissed|passphrase you entered is not correct|denied|not allowed/i,
    'denied',
  ],
  [
    /libsecret|cannot open shared object|keytar\.node|Module did not self-register|NODE_MODULE_VERSION/i,
    'not-installed',
  ],
  [/keychain could not be found|No keychain/i, 'no-provider'],
];

/** Removes every occurrence of the secrets from an OS message before it is kept anywhere. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join('[secret]');
  }
  return out;
}

/**
 * Maps whatever keytar threw to a SecretStoreUnavailableError with guidance. `secrets` are the
 * values involved in the call, scrubbed from the OS's wording before it is kept as `detail`.
 */
export function mapKeytarError(
  error: unknown,
  platform: NodeJS.Platform = process.platform,
  secrets: readonly string[] = [],
): SecretStoreUnavailableError {
  if (error instanceof SecretStoreUnavailableError) return error;
  const raw = error instanceof Error ? error.message : String(error);
  const detail = scrub(raw, secrets);
  const reason = PATTERNS.find(([pattern]) => pattern.test(raw))?.[1] ?? 'failed';
  return unavailable(reason, platform, detail);
}
