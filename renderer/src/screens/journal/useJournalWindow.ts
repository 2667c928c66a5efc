// The journal as random-access pages: the rows the list shows come from pages of PAGE rows
// fetched by their offset, so jumping to the end of 100,000 entries fetches the last page and
// not the 499 before it (an infinite query would). Page 0 is always asked for: it carries the
// total the list sizes itself by. Every key starts with keys.journal, so a journal event
// refreshes what is on screen.

import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';

import type { JournalFilterInput, JournalRow } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { keys } from '../../queries';

export const PAGE = 200;

export interface JournalWindow {
  total: number | undefined;
  rowAt(index: number): JournalRow | undefined;
  loading: boolean;
  error: unknown;
}

/** The query of one page (page 0 carries the total; the screen's count uses the same). */
function pageQuery(filter: JournalFilterInput, page: number) {
  return {
    queryKey: [...keys.journal, 'search', filter, page] as const,
    queryFn: () => unwrap(paydesk().journal.search({ filter, offset: page * PAGE, limit: PAGE })),
    gcTime: 60_000,
  };
}

/** The filter's total, from page 0 (the same query as the window's first page). */
export function useJournalTotal(filter: JournalFilterInput): number | undefined {
  return useQuery(pageQuery(filter, 0)).data?.total;
}

export function useJournalWindow(
  filter: JournalFilterInput,
  range: { start: number; end: number },
): JournalWindow {
  const pages = useMemo(() => {
    const first = Math.floor(Math.max(0, range.start) / PAGE);
    const last = Math.floor(Math.max(0, range.end) / PAGE);
    const wanted = new Set<number>([0]);
    for (let p = first; p <= last; p++) wanted.add(p);
    return [...wanted].sort((a, b) => a - b);
  }, [range.start, range.end]);

  const results = useQueries({
    queries: pages.map((page) => pageQuery(filter, page)),
  });

  const byPage = new Map<number, JournalRow[]>();
  let total: number | undefined;
  let error: unknown;
  results.forEach((r, i) => {
    if (r.data) {
      byPage.set(pages[i]!, r.data.rows);
      total ??= r.data.total;
    }
    error ??= r.error ?? undefined;
  });

  return {
    total,
    rowAt: (index) => byPage.get(Math.floor(index / PAGE))?.[index % PAGE],
    loading: results.some((r) => r.isLoading),
    error,
  };
}
