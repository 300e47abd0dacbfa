import { csvField } from '../src/csv';

/** The dashboard writes an account's usage CSV itself: it defuses formula-like cells as the gateway's exports do. */
describe('dashboard usage CSV', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['\t=cmd|calc', "'\t=cmd|calc"],
    ['\r=cmd|calc', `"'\r=cmd|calc"`],
    ['=HYPERLINK("https://x.test","y")', `"'=HYPERLINK(""https://x.test"",""y"")"`],
  ])('defuses %j before quoting it', (cell, expected) => {
    expect(csvField(cell)).toBe(expected);
  });

  it('leaves numbers and plain text alone', () => {
    expect([csvField(-5), csvField('sim-chat'), csvField(undefined)]).toEqual(['-5', 'sim-chat', '']);
  });
});
