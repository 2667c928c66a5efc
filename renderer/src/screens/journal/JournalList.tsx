// The journal as a virtualized table: only the rows in view (and a few around them) are in the
// DOM, so 1,000,000 entries scroll like 100, and every one of them is reachable (the scroll
// area is scaled when the rows would be taller than a browser allows: useScaledRows.ts). The
// scroll area is one focusable region: arrow keys, Page Up/Down, Home and End scroll it; links
// inside are reachable with Tab. "Go to date" shows the newest entry of a day.
//
// Nothing that identifies an entry is cut: a shop order id and a reason wrap onto a second line,
// and a cell's whole text is in the page (a copy takes it all) and in its tooltip. Where the
// list is narrow (a 200% zoom, a small window) the columns a clerk can do without give way,
// the operator first and the error last, so the time, what was done, the shop's id, the amount
// and the status always show (journal.css, container queries on the list's width).

import { useRef } from 'react';

import type { JournalFilterInput, JournalRow } from '../../../../common/contract';
import { isOpenLink } from '../../../../common/journal-actions';
import { ErrorNotice } from '../../components/Notice';
import { hrefOf } from '../../route';
import { groupThousands } from '../../../../common/money';
import { localTimeWithOffset } from '../../../../common/time';
import { GoToDate } from './GoToDate';
import { PAGE, useJournalTotal, useJournalWindow } from './useJournalWindow';
import { useScaledRows } from './useScaledRows';

const ROW_HEIGHT = 40;
const HEADER_HEIGHT = 38;

/** Each column's header and its class (journal.css gives each its width and when it gives way). */
const COLUMNS = [
  ['Time', 'c-time'],
  ['Operator, profile', 'c-who'],
  ['Operation', 'c-operation'],
  ['Shop order id', 'c-shop'],
  ['orderid', 'c-orderid'],
  ['Amount', 'c-amount num'],
  ['Reason', 'c-reason'],
  ['Status', 'c-status'],
  ['Error', 'c-error'],
] as const;

function StatusPill({ row }: { row: JournalRow }) {
  if (row.state === 'final') {
    const status = row.status ?? 'final';
    return <span className={`status-pill status-${status}`}>{status}</span>;
  }
  if (row.state === 'refused') {
    return (
      <span
        className="status-pill status-refused"
        title="The gateway refused the request; nothing was processed."
      >
        refused
      </span>
    );
  }
  if (isOpenLink(row)) {
    // A payment link waiting for its customer: no money moves until they pay.
    return (
      <span
        className="status-pill status-open"
        title="An open link: the gateway made it and waits for the customer to pay. No money has moved."
      >
        open
      </span>
    );
  }
  const label = { sending: 'sending', acknowledged: 'processing', unknown: 'checking' }[row.state];
  return (
    <span
      className={`status-pill status-${row.state}`}
      title="Pending: the gateway's final status is still owed."
    >
      <span className="visually-hidden">pending: </span>
      {label}
    </span>
  );
}

function Cells({ row, onOpen }: { row: JournalRow; onOpen: (clientOrderId: string) => void }) {
  const target = row.targetOrderId ?? row.orderId;
  const own =
    row.orderId && row.orderId !== target
      ? `This ${row.operation}'s own orderid: ${row.orderId}`
      : undefined;
  const amount = row.amount ? `${groupThousands(row.amount)} ${row.currency ?? ''}`.trim() : '';
  const reason = [row.reason, row.note].filter(Boolean).join(': ');
  const time = localTimeWithOffset(row.createdAt);
  const day = time.slice(0, 10);
  const shopTitle = [
    row.targetClientOrderId ? `Shop order id ${row.targetClientOrderId}` : 'No shop order id',
    row.email,
    `Paydesk's action id ${row.clientOrderId}`,
  ]
    .filter(Boolean)
    .join('; ');
  return (
    <>
      <span role="cell" className="mono-num journal-time c-time" title={time}>
        <span className="line">{day}</span>
        <span className="line">{time.slice(11)}</span>
      </span>
      <span role="cell" className="c-who" title={`${row.operator}, profile ${row.profileName}`}>
        <span className="line">{row.operator}</span>
        <span className="line muted">{row.profileName}</span>
      </span>
      <span role="cell" className="c-operation" title={`Gateway operation ${row.operation}`}>
        <button
          type="button"
          className="link-button"
          aria-label={`Details of ${row.actionLabel} ${row.clientOrderId}`}
          onClick={() => onOpen(row.clientOrderId)}
        >
          {row.actionLabel}
        </button>
      </span>
      <span role="cell" className="mono c-shop wraps" title={shopTitle}>
        {row.targetClientOrderId ?? '—'}
      </span>
      <span role="cell" className="mono c-orderid" title={own ?? target ?? undefined}>
        {target ? (
          <a
            href={hrefOf({ screen: 'lookup', param: target })}
            aria-label={`Look up order ${target}`}
          >
            {target}
          </a>
        ) : (
          '—'
        )}
      </span>
      <span role="cell" className="num money c-amount" title={amount || undefined}>
        {amount || '—'}
      </span>
      <span role="cell" className="c-reason wraps" title={reason || undefined}>
        {reason}
      </span>
      <span role="cell" className="c-status">
        <StatusPill row={row} />
      </span>
      <span role="cell" className="error-text c-error wraps" title={row.errorMessage ?? undefined}>
        {row.errorMessage}
      </span>
    </>
  );
}

export function JournalList({
  filter,
  onOpen,
}: {
  filter: JournalFilterInput;
  /** Opens the detail view of an entry. */
  onOpen: (clientOrderId: string) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);

  const total = useJournalTotal(filter) ?? 0;
  const list = useScaledRows(scrollRef, {
    count: total,
    rowHeight: ROW_HEIGHT,
    header: HEADER_HEIGHT,
    overscan: 12,
  });
  // The pages the rows in view come from, in whole pages: scrolling within a page asks for
  // nothing new.
  const journal = useJournalWindow(filter, {
    start: Math.floor(Math.max(0, list.firstIndex - 12) / PAGE) * PAGE,
    end: Math.floor((list.lastIndex + 12) / PAGE) * PAGE,
  });

  if (journal.error)
    return <ErrorNotice error={journal.error} title="The journal could not be read:" />;

  return (
    <>
      <GoToDate filter={filter} total={total} onGo={list.scrollToIndex} />
      <div
        ref={scrollRef}
        className="journal-scroll"
        role="region"
        aria-label="Journal entries"
        tabIndex={0}
        onKeyDown={list.onKeyDown}
      >
        <div
          className="journal-table"
          role="table"
          aria-label="Journal"
          aria-rowcount={total + 1}
          aria-busy={journal.loading}
          style={{ height: list.height }}
        >
          <div className="journal-row journal-head" role="row" aria-rowindex={1}>
            {COLUMNS.map(([name, className]) => (
              <span key={name} role="columnheader" className={className}>
                {name}
              </span>
            ))}
          </div>
          {list.rows.map((item) => {
            const row = journal.rowAt(item.index);
            return (
              <div
                key={item.index}
                className={`journal-row${item.index % 2 ? ' odd' : ''}`}
                role="row"
                aria-rowindex={item.index + 2}
                style={{ transform: `translateY(${item.top}px)` }}
              >
                {row ? (
                  <Cells row={row} onOpen={onOpen} />
                ) : (
                  <span role="cell" className="loading-cell">
                    Loading…
                  </span>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
