// "Go to date": shows the newest entry of a day (or the first one older, if the day has none).
// Its place in the list is the number of entries after that day, with the list's own filter,
// which the journal's search already counts (the `from` of the day after), so no second way of
// ordering the journal is needed here.

import { useId, useState, type FormEvent } from 'react';

import type { JournalFilterInput } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';

/** The filter narrowed to entries after local day `day` (yyyy-mm-dd); null: none can match. */
export function afterDay(filter: JournalFilterInput, day: string): JournalFilterInput | null {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  const from = next.toISOString();
  if (filter.to && filter.to <= from) return null;
  return { ...filter, from: filter.from && filter.from > from ? filter.from : from };
}

export function GoToDate({
  filter,
  total,
  onGo,
}: {
  filter: JournalFilterInput;
  total: number;
  onGo: (index: number) => void;
}) {
  const id = useId();
  const [day, setDay] = useState('');
  const [message, setMessage] = useState('');

  async function go(event: FormEvent) {
    event.preventDefault();
    if (!day) return setMessage('Choose a day first.');
    const after = afterDay(filter, day);
    try {
      const newer = after
        ? (await unwrap(paydesk().journal.search({ filter: after, offset: 0, limit: 1 }))).total
        : 0;
      if (newer >= total) {
        setMessage('No entries on or before that day: showing the oldest.');
        onGo(total - 1);
      } else {
        setMessage('');
        onGo(newer);
      }
    } catch (error) {
      setMessage(`Could not find the day: ${error instanceof Error ? error.message : 'unknown'}`);
    }
  }

  return (
    <form className="journal-goto" onSubmit={(e) => void go(e)} aria-label="Go to date">
      <label htmlFor={id}>Go to date</label>
      <input id={id} type="date" value={day} onChange={(e) => setDay(e.target.value)} />
      <button type="submit">Go</button>
      <span role="status" className="journal-goto-message">
        {message}
      </span>
    </form>
  );
}
