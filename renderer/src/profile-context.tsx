// The active profile: which gateway connection every screen works with. Kept in localStorage
// (the app's own origin) so Paydesk reopens on the profile that was in use.

import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

import type { z } from 'zod';

import type { contract } from '../../common/contract';
import { useProfiles } from './queries';

export type ProfileView = z.output<(typeof contract)['profiles']['list']['result']>[number];

interface ActiveProfile {
  profiles: ProfileView[];
  active: ProfileView | undefined;
  setActiveId: (id: string) => void;
  loading: boolean;
  error: unknown;
}

const Context = createContext<ActiveProfile | undefined>(undefined);
const STORAGE_KEY = 'paydesk.activeProfile';

export function ActiveProfileProvider({ children }: { children: ReactNode }) {
  const { data, isLoading, error } = useProfiles();
  const [activeId, setActiveId] = useState<string | null>(() => localStorage.getItem(STORAGE_KEY));
  const profiles = useMemo(() => data ?? [], [data]);
  const active =
    profiles.find((p) => p.id === activeId) ?? profiles.find((p) => p.embedded) ?? profiles[0];

  useEffect(() => {
    if (active) localStorage.setItem(STORAGE_KEY, active.id);
  }, [active]);

  const value = useMemo(
    () => ({ profiles, active, setActiveId, loading: isLoading, error }),
    [profiles, active, isLoading, error],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useActiveProfile(): ActiveProfile {
  const value = useContext(Context);
  if (!value) throw new Error('useActiveProfile needs ActiveProfileProvider');
  return value;
}

/** The active profile where a provider gives one (the app); undefined in a part shown alone. */
export function useActiveProfileIfAny(): ActiveProfile | undefined {
  return useContext(Context);
}
