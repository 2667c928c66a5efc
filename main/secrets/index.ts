// Where secrets live: the OS keychain behind the SecretStore port. See store.ts.

export {
  MAX_SECRET_LENGTH,
  SECRET_KINDS,
  type SecretKind,
  type SecretStore,
  type SecretStoreStatus,
} from './store';
export {
  SecretStoreError,
  SecretStoreUnavailableError,
  type UnavailableReason,
  mapKeytarError,
} from './errors';
export { DEFAULT_SERVICE, type KeytarApi, KeytarSecretStore } from './keytar';
export { MemorySecretStore } from './memory';
export { CachedSecretStore } from './cached';
