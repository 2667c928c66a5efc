// Queries and events shared by every screen. Screen-specific queries live beside their screen.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { paydesk, unwrap } from './api';

export const keys = {
  status: ['app', 'status'] as const,
  profiles: ['profiles'] as const,
  journal: ['journal'] as const,
  order: (profileId: string, ref: string) => ['order', profileId, ref] as const,
  orders: ['order'] as const,
  key: (profileId: string) => ['key', profileId] as const,
};

export function useAppStatus() {
  return useQuery({
    queryKey: keys.status,
    queryFn: () => unwrap(paydesk().app.status({})),
    staleTime: Infinity,
  });
}

export function useProfiles() {
  return useQuery({ queryKey: keys.profiles, queryFn: () => unwrap(paydesk().profiles.list({})) });
}

/** A journal change from main refreshes the journal and every order it may touch. */
export function useJournalEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const api = window.paydesk;
    if (!api) return undefined;
    return api.on('journalChanged', () => {
      void client.invalidateQueries({ queryKey: keys.journal });
      void client.invalidateQueries({ queryKey: keys.orders });
    });
  }, [client]);
}
