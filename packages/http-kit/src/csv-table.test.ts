import { csvField, csvTable } from './csv-table';

/** CSV exports (usage, request log, audit) defuse every cell a spreadsheet would run as a formula. */
describe('csvField', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=cmd|calc', "'\t=cmd|calc"],
    ['\r=cmd|calc', `"'\r=cmd|calc"`],
    ['=HYPERLINK("https://x.test","y")', `"'=HYPERLINK(""https://x.test"",""y"")"`],
  ])('defuses a text cell starting a formula: %j', (cell, expected) => {
    expect(csvField(cell)).toBe(expected);
  });

  it('leaves numbers, plain text and a formula character past the start alone', () => {
    expect([csvField(-5), csvField(0), csvField('gpt-4o'), csvField('a\t=b'), csvField(null)]).toEqual(['-5', '0', 'gpt-4o', 'a\t=b', '']);
  });

  it('writes a defused row in a table', () => {
    expect(csvTable(['a', 'b'], [{ a: '\tx', b: 1 }])).toBe("a,b\r\n'\tx,1\r\n");
  });
});
