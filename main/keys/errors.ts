// Key errors carry a code for the Keys screen to pick a field or a hint, and a message an admin
// can act on. No message ever quotes key material or a passphrase.

export type KeyErrorCode =
  | 'not-pem'
  | 'not-a-private-key'
  | 'several-keys'
  | 'not-rsa'
  | 'too-small'
  | 'too-large'
  | 'passphrase-required'
  | 'wrong-passphrase'
  | 'unsupported-encryption'
  | 'damaged'
  | 'invalid-bits'
  | 'invalid-fingerprint';

export class KeyError extends Error {
  constructor(
    readonly code: KeyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'KeyError';
  }
}
