// Keys still being made when start returns: the built-in Sandbox profile's RSA key, made on
// libuv's pool at a first start (or at a start that finds the profile without one), costs more
// CPU than the rest of the start, and the first screen need not wait for it. Until it is in the keychain and
// its fingerprint in the database, every call that reads, replaces or checks that profile's key
// (profiles, keys, connections) waits here, so none sees a profile without its key or races the
// key being attached. A key that could not be made is reported where it is needed, and the
// profile is left as a start that died would leave it: without a key, which the next start makes.

export class PendingKeys {
  /** Settles (never rejects) once the profile's key is attached or has failed. */
  private readonly making = new Map<string, Promise<void>>();
  /** Why a profile's key could not be made, until a key is attached to it. */
  private readonly failures = new Map<string, string>();

  /** `work` makes and attaches the profile's key; calls on that key wait for it. */
  track(profileId: string, work: Promise<unknown>): void {
    this.failures.delete(profileId);
    const settled: Promise<void> = work.then(
      () => undefined,
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.failures.set(
          profileId,
          `The built-in Sandbox profile's RSA key could not be made at start (${why}). Quit and start Paydesk again to make it, or generate one for this profile under Keys.`,
        );
      },
    );
    this.making.set(profileId, settled);
    void settled.then(() => {
      if (this.making.get(profileId) === settled) this.making.delete(profileId);
    });
  }

  /** Resolves when no key is being made for the profile (at once when none is). */
  async settled(profileId: string): Promise<void> {
    await this.making.get(profileId);
  }

  /** Resolves when every key being made is attached or has failed (before the store closes). */
  async allSettled(): Promise<void> {
    await Promise.all(this.making.values());
  }

  /** Why the profile has no key, when making it at start failed and none was attached since. */
  failure(profileId: string): string | undefined {
    return this.failures.get(profileId);
  }

  /** A key was attached to the profile: any earlier failure no longer applies. */
  attached(profileId: string): void {
    this.failures.delete(profileId);
  }
}
