// What a bench row hands back, and the table it becomes (terminal and Markdown). A row states
// its target in words and whether it was met; it never fails the run: a bench measures.

export interface BenchLine {
  figure: string;
  project: string;
  reference: string;
  /** project / reference, already formatted (e.g. "0.31x"), or "" when there is none. */
  ratio: string;
  target: string;
  /** undefined when the line has no target or could not be measured. */
  met?: boolean;
  note?: string;
  /** The 1-minute load average when the row began and ended (run.ts fills it in). */
  load?: string;
}

export interface BenchContext {
  /** The --full run: the 1,000,000-entry journal. */
  full: boolean;
  /** Entries in the journal fixture of rows 6 and 7. */
  journalEntries: number;
  /** Progress for the person watching, on stderr. */
  log: (message: string) => void;
}

export interface BenchRow {
  /** Row number(s) of issue 13's table, for --only. */
  id: string;
  title: string;
  run(context: BenchContext): Promise<BenchLine[]>;
}

const HEADERS = ['figure', 'project', 'reference', 'ratio', 'target', 'met', 'load'] as const;

function cells(line: BenchLine): string[] {
  const met = line.met === undefined ? '' : line.met ? 'yes' : 'MISSED';
  return [line.figure, line.project, line.reference, line.ratio, line.target, met, line.load ?? ''];
}

/** A fixed-width table for the terminal, with notes below it. */
export function textTable(lines: readonly BenchLine[]): string {
  const rows = [HEADERS.slice(), ...lines.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const format = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [format(rows[0] ?? []), rule, ...rows.slice(1).map(format)].join('\n');
}

export function markdownTable(lines: readonly BenchLine[]): string {
  const escape = (c: string) => c.replace(/\|/g, '\\|');
  const head = `| ${HEADERS.join(' | ')} |`;
  const rule = `|${HEADERS.map(() => '---').join('|')}|`;
  const body = lines.map((l) => `| ${cells(l).map(escape).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

export function notes(lines: readonly BenchLine[]): string[] {
  return lines.filter((l) => l.note).map((l) => `${l.figure}: ${l.note}`);
}
