// Every CSV Paydesk writes goes through csv-record.ts: csv-stringify with Paydesk's dialect, and
// a fast path for plain records that must give exactly the library's bytes or step aside. These
// tests pin the fast path to the library (every UTF-16 code unit as a cell; random records), and
// read what is written back with csv-parse, as a spreadsheet or a script would.

import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  CSV_OPTIONS,
  csvLineWriter,
  joinedPlainTest,
  plainLine,
} from '../../../main/store/csv-record';

/** What the library writes for one record: the reference for the fast path. */
const library = (cells: readonly string[]) => stringify([cells], CSV_OPTIONS);

/** A cell's first characters that a spreadsheet runs as a formula (docs/protocol.md). */
const FORMULA_FIRST = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

/** What a reader gets back for a cell that was written: the cell, defused when it is a formula. */
const readBack = (cell: string) => (FORMULA_FIRST.includes(cell[0] ?? '') ? `'${cell}` : cell);

/** Cells made of the characters that matter to CSV, among any others. */
const cell = fc.string({
  unit: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...FORMULA_FIRST, '"', ',', '\n', '\r', ';', "'", ' '),
    },
    { weight: 5, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  ),
  maxLength: 12,
});

describe('the CSV record writer', () => {
  it('gives the library’s bytes, or declines, for every UTF-16 code unit as a cell', () => {
    let accepted = 0;
    const wrong: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit);
      for (const cells of [[c], [`a${c}`], [`${c}a`], ['x', c, 'y']]) {
        const fast = plainLine(cells);
        if (fast === undefined) continue;
        accepted++;
        if (fast !== library(cells)) wrong.push(`U+${unit.toString(16).padStart(4, '0')}`);
      }
    }
    expect(wrong).toEqual([]);
    // The fast path does take the ordinary cells (it is the export's speed).
    expect(accepted).toBeGreaterThan(4 * 0xffff - 100);
  }, 120_000);

  it('takes a line its caller joined exactly when the cells are plain, for every UTF-16 code unit', () => {
    // The export joins a record's cells itself and tests the line once (joinedPlainTest): that
    // test must say yes exactly where plainLine does, so the joined line is the library's.
    const wrong: string[] = [];
    const tests = new Map([1, 2, 3].map((width) => [width, joinedPlainTest(width)]));
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit);
      for (const cells of [[c], [`a${c}`], [`${c}a`], ['x', c, 'y'], ['', `${c}${c}`, '']]) {
        const joined = cells.join(',') + '\r\n';
        if (tests.get(cells.length)!(joined) !== (plainLine(cells) !== undefined)) {
          wrong.push(`U+${unit.toString(16).padStart(4, '0')} in ${JSON.stringify(cells)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('takes a joined line exactly when plainLine takes its cells, for any record', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 20 }), (cells) => {
        const plain = plainLine(cells);
        const joined = cells.join(',') + '\r\n';
        expect(joinedPlainTest(cells.length)(joined)).toBe(plain !== undefined);
        if (plain !== undefined) {
          expect(joined).toBe(library(cells));
          // The count of cells is part of the test (a cell with a comma would make another).
          expect(joinedPlainTest(cells.length + 1)(joined)).toBe(false);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('writes what the library writes for any record', async () => {
    const line = await csvLineWriter();
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 6 }), (cells) => {
        expect(line(cells)).toBe(library(cells));
        const fast = plainLine(cells);
        if (fast !== undefined) expect(fast).toBe(library(cells));
      }),
      { numRuns: 5_000 },
    );
  });

  it('is read back by csv-parse as the same cells, formulas after an apostrophe', async () => {
    const line = await csvLineWriter();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) =>
          fc.array(fc.array(cell, { minLength: width, maxLength: width }), {
            minLength: 1,
            maxLength: 5,
          }),
        ),
        (records) => {
          const expected = records.map((cells) => cells.map(readBack));
          // Each record alone: one record, whatever line break the reader settles on.
          for (const [i, cells] of records.entries()) {
            expect(parse(line(cells))).toEqual([expected[i]]);
          }
          expect(parse(records.map(line).join(''))).toEqual(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('quotes a lone CR or LF in a cell, so no reader cuts the record there', async () => {
    const line = await csvLineWriter();
    expect(line(['a\nb', 'c\rd', 'e\r\nf'])).toBe('"a\nb","c\rd","e\r\nf"\r\n');
    expect(parse(line(['a\nb', 'x']) + line(['c\rd', 'y']))).toEqual([
      ['a\nb', 'x'],
      ['c\rd', 'y'],
    ]);
  });

  it('defuses formulas, fullwidth ones too, and quotes commas and quotes', async () => {
    const line = await csvLineWriter();
    expect(
      line(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\uFF1D1', '\uFF0B1', '\uFF0D1', '\uFF20A']),
    ).toBe("'=1+1,'+1,'-1,'@SUM(A1),'\tx,'\uFF1D1,'\uFF0B1,'\uFF0D1,'\uFF20A\r\n");
    expect(line(['Said "wrong size", sent back', '\rx', '2.50'])).toBe(
      '"Said ""wrong size"", sent back","\'\rx",2.50\r\n',
    );
    expect(line(['pd-1', '', 'EUR'])).toBe('pd-1,,EUR\r\n');
  });
});
