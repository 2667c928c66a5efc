// RSA key material for OAuth RSA-SHA256 (main/gateway signs with node:crypto): generate, import,
// public key export, fingerprints, and the one-environment rule. Nothing here hands a private
// key to the user.

export { KeyError, type KeyErrorCode } from './errors';
export { DEFAULT_KEY_SIZE, KEY_SIZES, type KeySize, generateKeyPair } from './generate';
export { importPrivateKey } from './import';
export { type KeyMaterial, MAX_RSA_BITS, MIN_RSA_BITS } from './material';
export { type Fingerprint, fingerprintOf, normalizeFingerprint } from './fingerprint';
export {
  type KeyAttachment,
  type KeyEnvironment,
  type KeyEnvironmentDecision,
  checkKeyEnvironment,
} from './environment';
