import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { escapeCsvCell } from './billing.presenter.ts';

describe('billing CSV cells', () => {
  it('a full-width ＝ at the start of a CSV cell is escaped', () => {
    expect(escapeCsvCell('＝HYPERLINK("http://x")')).toBe(`'＝HYPERLINK("http://x")`);
  });

  it.each([
    ['=1+1'],
    ['+1-555'],
    ['-2'],
    ['@SUM(A1)'],
    ['\t=1'],
    ['\r=1'],
    ['＝1'],
    ['＋1'],
    ['－1'],
    ['＠SUM(A1)'],
    ['  =1'],
    [' \t+1'],
    ['\u3000＝1'],
    ['\u00a0@x'],
  ])('escapes a formula starter: %j', (cell) => {
    expect(escapeCsvCell(cell)).toBe(`'${cell}`);
  });

  it.each([['Ada Full'], ['1950-02-03'], ['99453'], [' Ada'], ['a=b'], ['']])('leaves plain text alone: %j', (cell) => {
    expect(escapeCsvCell(cell)).toBe(cell);
  });

  it('escapes through the CSV library the export uses', () => {
    expect(stringify([['＝1+1', 'ok']], { cast: { string: escapeCsvCell } })).toBe(`'＝1+1,ok\n`);
  });
});
