// The start's keychain check, bounded. keytar can wait on the OS (an unlock or "create keyring"
// prompt, perhaps behind another window) or hang on a dead D-Bus, and a start that only waits
// shows nothing. After the bound the window says what is happening and offers to ask again or to
// go on without the keychain; a probe that answers late still ends the wait, as it is the
// person answering the prompt.

import { SecretStoreUnavailableError, type SecretStore, type SecretStoreStatus } from '../secrets';

/** Long enough for a keychain that answers at all, short enough that nobody wonders. */
export const KEYCHAIN_BOUND_MS = 5_000;

export const KEYCHAIN_WAITING_MESSAGE =
  'The system keychain has not answered. Your computer may be asking you to unlock it or to ' +
  'create a keyring, perhaps in a window behind this one: answer it and Paydesk goes on. Or try ' +
  'again, or start without the keychain (profiles with keys, and the built-in sandbox, stay off ' +
  'until Paydesk starts again).';

export const KEYCHAIN_SKIPPED_MESSAGE =
  'Paydesk started without the keychain because it did not answer. Unlock or set up the ' +
  'system keychain, then quit and start Paydesk again to use keys and the built-in sandbox.';

export interface KeychainCheckEvents {
  /** A probe is running (the first, or one asked for again). */
  checking(): void;
  /** The bound passed without an answer: show KEYCHAIN_WAITING_MESSAGE and the choices. */
  waiting(): void;
}

export class KeychainCheck {
  readonly result: Promise<SecretStoreStatus>;
  private settle: (status: SecretStoreStatus) => void = () => undefined;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly secrets: Pick<SecretStore, 'probe'>,
    private readonly events: KeychainCheckEvents,
    private readonly boundMs = KEYCHAIN_BOUND_MS,
  ) {
    this.result = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Starts the first probe; resolves with the first answer, or the person's choice to skip. */
  run(): Promise<SecretStoreStatus> {
    this.attempt();
    return this.result;
  }

  /** Asks the keychain again; an earlier probe that answers first still counts. */
  retry(): void {
    if (!this.settled) this.attempt();
  }

  /** Goes on without the keychain. */
  skip(): void {
    this.finish({
      usable: false,
      error: new SecretStoreUnavailableError('failed', KEYCHAIN_SKIPPED_MESSAGE),
    });
  }

  get isSettled(): boolean {
    return this.settled;
  }

  private attempt(): void {
    clearTimeout(this.timer);
    this.events.checking();
    this.timer = setTimeout(() => {
      if (!this.settled) this.events.waiting();
    }, this.boundMs);
    // probe() never throws (SecretStore's contract); a rejection would be a bug, said as one.
    this.secrets.probe().then(
      (status) => this.finish(status),
      (error: unknown) =>
        this.finish({
          usable: false,
          error: new SecretStoreUnavailableError(
            'failed',
            `The keychain check failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        }),
    );
  }

  private finish(status: SecretStoreStatus): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.settle(status);
  }
}
