// A reconciliation's result as files: the CSV of every line (the one CSV writer, csv-record.ts)
// and the printable page a controller signs, as self-contained HTML that main prints to PDF
// (print-pdf.ts). The page has no script and loads nothing: its style is inline, and every
// text from the journal or the gateway is escaped.

import { actionLabel } from '../../../common/journal-actions';
import { localTimeWithOffset } from '../../../common/time';
import { csvLineWriter } from '../../store/csv-record';
import type { LineView, RunView } from './view';

export const CSV_HEADER = [
  'line',
  'kind',
  'orderid',
  'client_orderid',
  'operation',
  'written_at',
  'journal',
  'gateway',
  'result',
  'findings',
  'error',
];

const RESULT_WORDS: Record<LineView['state'], string> = {
  todo: 'not read yet',
  agrees: 'agrees',
  differs: 'disagrees',
  unreadable: 'could not be read',
  'not-askable': 'cannot be asked',
};

export async function reconcileCsv(lines: readonly LineView[]): Promise<string> {
  const line = await csvLineWriter();
  let csv = line(CSV_HEADER);
  for (const l of lines)
    csv += line([
      String(l.seq),
      l.kind,
      l.orderId ?? '',
      l.clientOrderId ?? '',
      l.operation ?? '',
      l.createdAt ? localTimeWithOffset(l.createdAt) : '',
      l.journal,
      l.gateway ?? '',
      RESULT_WORDS[l.state],
      l.findings.map((f) => f.message).join(' | '),
      l.error ?? '',
    ]);
  return csv;
}

const escape = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const STYLE = `
  @page { size: A4; margin: 16mm 14mm; }
  body { font: 10pt/1.4 system-ui, sans-serif; color: #111; margin: 0; }
  h1 { font-size: 16pt; margin: 0 0 4pt; }
  h2 { font-size: 12pt; margin: 16pt 0 4pt; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: 3pt 5pt; border-bottom: 0.5pt solid #999; }
  th { background: #eee; }
  .facts td:first-child { width: 30%; color: #444; }
  .mono { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
  .order { white-space: nowrap; }
  .unfinished { border: 1pt solid #a00; color: #a00; padding: 6pt; margin: 8pt 0; }
  .sign { margin-top: 28pt; display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 16pt; }
  .sign div { border-top: 0.75pt solid #111; padding-top: 3pt; color: #444; }
  footer { margin-top: 16pt; color: #666; font-size: 8pt; }
  tr { break-inside: avoid; }
`;

function linesTable(lines: readonly LineView[], what: (l: LineView) => string): string {
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${l.seq}</td><td class="mono order">${escape(l.orderId ?? '')}</td>` +
        `<td class="mono">${escape(l.clientOrderId ?? '')}</td><td>${escape(l.kind === 'order' ? 'the order' : actionLabel(l.action, l.operation ?? ''))}</td>` +
        `<td>${escape(l.journal)}</td><td>${escape(l.gateway ?? '')}</td><td>${escape(what(l))}</td></tr>`,
    )
    .join('\n');
  return `<table><thead><tr><th>Line</th><th>Order</th><th>Action or shop id</th><th>Operation</th><th>Journal</th><th>Gateway</th><th>Finding</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/** The printable page of a run: what was compared, every finding, and lines to sign. */
export function reconcileHtml(
  run: RunView,
  findings: readonly LineView[],
  printedAt: Date,
): string {
  const p = run.progress;
  const differs = findings.filter((l) => l.state === 'differs');
  const unreadable = findings.filter((l) => l.state === 'unreadable');
  const facts: [string, string][] = [
    ['Profile', run.profileName],
    [
      'Journal entries written',
      `from ${localTimeWithOffset(run.from)} until ${localTimeWithOffset(run.to)}`,
    ],
    [
      'Journal',
      run.journalStore === 'postgres' ? "the team's journal (PostgreSQL)" : "this desk's journal",
    ],
    ['Run by', run.operator],
    ['Started', localTimeWithOffset(run.createdAt)],
    ['Finished', run.finishedAt ? localTimeWithOffset(run.finishedAt) : 'not finished'],
    ['Lines read', `${p.done} of ${p.total}`],
    ['Agree with the gateway', String(p.agrees)],
    ['Disagree', String(p.differs)],
    ['Could not be read', String(p.unreadable)],
    ['Cannot be asked', String(p.notAskable)],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reconciliation ${run.id}: ${escape(run.profileName)}</title>
<style>${STYLE}</style></head>
<body>
<h1>Reconciliation of the journal with the gateway</h1>
<p>Every journal entry of the range, and every order those entries act on, was compared with the gateway's status.</p>
<table class="facts"><tbody>
${facts.map(([k, v]) => `<tr><td>${escape(k)}</td><td>${escape(v)}</td></tr>`).join('\n')}
</tbody></table>
${run.state === 'done' ? '' : `<p class="unfinished">This run is not finished: ${p.left} lines have not been read yet. What follows is what was found so far.</p>`}
<h2>Disagreements (${differs.length})</h2>
${differs.length ? linesTable(differs, (l) => l.findings.map((f) => f.message).join(' ')) : '<p>None.</p>'}
<h2>Could not be read (${unreadable.length})</h2>
${unreadable.length ? linesTable(unreadable, (l) => l.error ?? '') : '<p>None.</p>'}
<div class="sign"><div>Checked by (name)</div><div>Date</div><div>Signature</div></div>
<footer>Printed by Paydesk on ${escape(localTimeWithOffset(printedAt.toISOString()))}; reconciliation ${run.id}.</footer>
</body></html>
`;
}
