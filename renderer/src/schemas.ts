// The contract's zod schemas (common/contract.ts with zod itself) are about a third of the
// JavaScript a screen would load before it paints, and a form needs them only when it is
// submitted. So they are a chunk of their own: a screen with a form starts loading it once it
// has mounted (useSchemasSoon), and a check runs with it at once when it is here, or as soon as
// it is (withSchemas). Main parses every request with the same schemas again, whatever a form
// checked. Screens that only need the contract's types import them with `import type`.

import { useEffect } from 'react';

import type * as ContractModule from '../../common/contract';

export type Contract = typeof ContractModule;

let loading: Promise<Contract> | undefined;
let loaded: Contract | undefined;

export function loadSchemas(): Promise<Contract> {
  loading ??= import('../../common/contract').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined; // the next check asks again
      throw error;
    },
  );
  return loading;
}

/** Runs `check` with the schemas: now when they are loaded, else once they are. */
export function withSchemas(check: (contract: Contract) => void): void {
  if (loaded) check(loaded);
  else
    loadSchemas().then(check, (error: unknown) => {
      console.error('The form checks could not be loaded:', error);
    });
}

/** Starts loading the schemas once the screen has painted, so a submit finds them here. */
export function useSchemasSoon(): void {
  useEffect(() => {
    void loadSchemas().catch(() => undefined);
  }, []);
}
