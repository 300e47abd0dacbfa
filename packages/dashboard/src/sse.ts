/**
 * Splits server-sent events out of a growing buffer: the `data:` payloads of each complete event (blank-line ended),
 * and what is left for the next chunk. Pure, so the stream reader and its tests share it.
 */
export function takeSseData(buffer: string): { data: string[]; rest: string } {
  const data: string[] = [];
  let rest = buffer;
  let m: RegExpExecArray | null;
  while ((m = /\r?\n\r?\n/.exec(rest))) {
    const block = rest.slice(0, m.index);
    rest = rest.slice(m.index + m[0].length);
    const payload = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (payload) data.push(payload);
  }
  return { data, rest };
}
