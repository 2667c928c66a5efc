// Settings -> Team journal's card for the database administrator: team.sql, the schema this
// Paydesk's team journal needs, saved from the app itself, so whoever sets the database up needs
// no checkout of Paydesk's source and gets the schema of the version the desks run.

import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';

import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';

export function SetupSql() {
  const uid = useId();
  const saveSql = useMutation({
    mutationFn: () => unwrap(paydesk().team.saveSetupSql({})),
  });
  return (
    <section className="card" aria-labelledby={`${uid}-dba`}>
      <h2 id={`${uid}-dba`}>For your database administrator</h2>
      <p>
        The team&apos;s database is set up once, by whoever runs your PostgreSQL, with{' '}
        <code>team.sql</code>: the schema this Paydesk uses, run with{' '}
        <code>psql -v ON_ERROR_STOP=1 -f team.sql</code>. Save it here and hand it over; the team
        guide says what they run and what they create next.
      </p>
      <div className="button-row">
        <button type="button" onClick={() => saveSql.mutate()} disabled={saveSql.isPending}>
          Save team.sql…
        </button>
      </div>
      {saveSql.data?.saved && (
        <Notice kind="success">
          <strong>Saved</strong> to {saveSql.data.path}.
        </Notice>
      )}
      {saveSql.error && <ErrorNotice error={saveSql.error} title="Not saved:" />}
    </section>
  );
}
