// Rows of a fixed height in a scroll area of any length. A browser caps an element's height
// (Chromium at 33,554,432 px), so a list of 40 px rows could not reach past row ~838,000 if the
// scroll area were as tall as its rows. Here the scroll area is at most MAX_SCROLL_PX tall and
// the scrollbar is scaled: its position is a fraction of the whole list, and the rows are laid
// out around where the viewport is in the list ("content"), not in the scroll area. Dragging
// the thumb reaches any row; the keys and the wheel move the content itself, so a line is one
// row and a page one viewport whatever the scale (the browser's own steps would move the
// scaled scrollbar, skipping rows). A short list is not scaled and scrolls as a plain one.

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Well under every browser's cap (Chromium 33,554,432 px, Firefox about 17,895,697 px). */
export const MAX_SCROLL_PX = 16_000_000;

export interface ScaledRow {
  index: number;
  /** Where the row starts in the scroll area (px from its top). */
  top: number;
}

export interface ScaledRows {
  /** The scroll area's height. */
  height: number;
  rows: ScaledRow[];
  /** The first and last row in view (without overscan). */
  firstIndex: number;
  lastIndex: number;
  /** Shows row `index` just under the header. */
  scrollToIndex: (index: number) => void;
  /** For the scroll area's onKeyDown: Home, End, Page Up/Down, arrows and Space. */
  onKeyDown: (event: React.KeyboardEvent<HTMLElement>) => void;
}

interface Geometry {
  contentHeight: number;
  height: number;
  viewport: number;
  maxContent: number;
  maxScroll: number;
  /** Content px per scroll px (1: not scaled). */
  ratio: number;
}

export function geometry(
  count: number,
  rowHeight: number,
  header: number,
  viewport: number,
): Geometry {
  const contentHeight = header + count * rowHeight;
  const height = Math.min(contentHeight, MAX_SCROLL_PX);
  const maxContent = Math.max(0, contentHeight - viewport);
  const maxScroll = Math.max(0, height - viewport);
  const ratio = maxScroll > 0 ? maxContent / maxScroll : 1;
  return { contentHeight, height, viewport, maxContent, maxScroll, ratio };
}

/** Where the content is when the scroll area is at `scrollTop` (its end is the list's end). */
export function contentOf(g: Geometry, scrollTop: number): number {
  if (scrollTop >= g.maxScroll - 0.5) return g.maxContent;
  return Math.min(g.maxContent, Math.max(0, scrollTop * g.ratio));
}

/** The lines a key moves the content by (undefined: not a scrolling key). */
function keyTarget(
  key: string,
  shift: boolean,
  content: number,
  g: Geometry,
  rowHeight: number,
  header: number,
): number | undefined {
  const page = Math.max(rowHeight, g.viewport - header - rowHeight);
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return g.maxContent;
    case 'PageDown':
      return content + page;
    case 'PageUp':
      return content - page;
    case ' ':
      return content + (shift ? -page : page);
    case 'ArrowDown':
      return content + rowHeight;
    case 'ArrowUp':
      return content - rowHeight;
    default:
      return undefined;
  }
}

export function useScaledRows(
  scrollRef: React.RefObject<HTMLElement | null>,
  options: { count: number; rowHeight: number; header: number; overscan: number },
): ScaledRows {
  const { count, rowHeight, header, overscan } = options;
  const [viewport, setViewport] = useState(0);
  // Where the content is, and the scroll area's scrollTop that shows it (set together).
  const [at, setAt] = useState({ content: 0, scrollTop: 0 });
  // A scroll event at the scrollTop this hook set is its own, not the user's.
  const ownScrollTop = useRef<number | undefined>(undefined);
  const g = geometry(count, rowHeight, header, viewport);
  // What the handlers (scroll, wheel, keys) read: the last committed render's.
  const geo = useRef(g);
  const content = useRef(at.content);
  useLayoutEffect(() => {
    geo.current = g;
    content.current = at.content;
  });

  const moveTo = useCallback(
    (target: number) => {
      const el = scrollRef.current;
      if (!el) return;
      const now = geo.current;
      const next = Math.min(now.maxContent, Math.max(0, target));
      const wanted = next >= now.maxContent ? now.maxScroll : next / now.ratio;
      el.scrollTop = wanted;
      // The browser rounds scrollTop to its pixels; the content keeps the exact place.
      ownScrollTop.current = el.scrollTop;
      setAt({ content: next, scrollTop: el.scrollTop });
    },
    [scrollRef],
  );

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => setViewport(el.clientHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    const onScroll = () => {
      const scrollTop = el.scrollTop;
      if (ownScrollTop.current !== undefined && Math.abs(scrollTop - ownScrollTop.current) < 1)
        return;
      ownScrollTop.current = undefined;
      setAt({ content: contentOf(geo.current, scrollTop), scrollTop });
    };
    // The wheel moves the content by its own distance when the scrollbar is scaled (the
    // browser would move the scrollbar by it: `ratio` times as far).
    const onWheel = (event: WheelEvent) => {
      const now = geo.current;
      if (now.ratio <= 1 || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
      event.preventDefault();
      const unit =
        event.deltaMode === WheelEvent.DOM_DELTA_LINE
          ? rowHeight
          : event.deltaMode === WheelEvent.DOM_DELTA_PAGE
            ? now.viewport
            : 1;
      moveTo(content.current + event.deltaY * unit);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
      el.removeEventListener('wheel', onWheel);
    };
  }, [scrollRef, moveTo, rowHeight]);

  // A new count (the journal grew) or viewport changes the scale: keep the content in place.
  useEffect(() => {
    if (at.content > g.maxContent || Math.abs(at.scrollTop * g.ratio - at.content) > g.ratio)
      moveTo(at.content);
  }, [g.maxContent, g.ratio, at, moveTo]);

  const onKeyDown = useCallback(
    (event: React.KeyboardEvent<HTMLElement>) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // Space on a button or link inside is that element's own.
      if (event.key === ' ' && event.target !== event.currentTarget) return;
      const target = keyTarget(
        event.key,
        event.shiftKey,
        content.current,
        geo.current,
        rowHeight,
        header,
      );
      if (target === undefined) return;
      event.preventDefault();
      moveTo(target);
    },
    [moveTo, rowHeight, header],
  );

  const scrollToIndex = useCallback(
    (index: number) => moveTo(Math.max(0, index) * rowHeight),
    [moveTo, rowHeight],
  );

  const firstIndex = Math.max(0, Math.floor((at.content - 0) / rowHeight));
  const lastIndex = Math.max(
    0,
    Math.min(count - 1, Math.floor((at.content + Math.max(viewport, 1) - header) / rowHeight)),
  );
  const rows: ScaledRow[] = [];
  if (count > 0) {
    const from = Math.max(0, firstIndex - overscan);
    const to = Math.min(count - 1, lastIndex + overscan);
    for (let index = from; index <= to; index++)
      rows.push({ index, top: at.scrollTop + header + index * rowHeight - at.content });
  }
  return { height: g.height, rows, firstIndex, lastIndex, scrollToIndex, onKeyDown };
}
