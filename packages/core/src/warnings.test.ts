import { distinctWarnings, droppedContent, unsupportedSetting, warningsHeader, warningText, type Warning } from './warnings';

describe('warnings', () => {
  it('render as `<field>: <what happened>`', () => {
    expect(warningText(unsupportedSetting('seed', 'not supported by Anthropic; ignored'))).toBe(
      'seed: not supported by Anthropic; ignored',
    );
    expect(warningText(unsupportedSetting('topK'))).toBe('topK: not supported by the upstream; ignored');
    expect(warningText(droppedContent('content.redacted_thinking', 'block type has no canonical form; dropped'))).toBe(
      'content.redacted_thinking: block type has no canonical form; dropped',
    );
    expect(warningText({ type: 'other', message: 'free text' })).toBe('free text');
  });

  it('never echo a caller- or upstream-chosen name unsanitised, nor at length', () => {
    expect(warningText(unsupportedSetting('x\r\nSet-Cookie: a=b', 'not sent'))).toBe('x??Set-Cookie??a?b: not sent');
    expect(warningText(droppedContent(`content.${'a'.repeat(200)}`)).length).toBeLessThan(80);
  });

  it('join into one header value without control characters, within 1 KB', () => {
    const many: Warning[] = Array.from({ length: 100 }, (_, i) => unsupportedSetting(`field${i}`, 'not sent'));
    const header = warningsHeader(many)!;
    expect(header.length).toBeLessThanOrEqual(1024);
    expect(header.startsWith('field0: not sent; field1: not sent')).toBe(true);
    expect(header.endsWith('not sent')).toBe(true);
    expect(warningsHeader([{ type: 'other', message: 'a\u0000b\nc\u00e9\u2026' }])).toBe('abc??');
    expect(warningsHeader([{ type: 'other', message: 'x'.repeat(5000) }])).toHaveLength(1024);
    expect(warningsHeader([])).toBeUndefined();
  });

  it('distinctWarnings keeps each warning once', () => {
    const w = droppedContent('messages.content.image', 'image dropped');
    expect(distinctWarnings([w, { ...w }, unsupportedSetting('n')])).toEqual([w, unsupportedSetting('n')]);
  });
});
