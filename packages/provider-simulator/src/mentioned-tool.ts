/**
 * Which of the offered tools a prompt asks for. Agents namespace their tools (`functions.exec_command`,
 * `mcp__server__tool`, `ns__exec_command` as the Responses format flattens a namespace, `server/tool`), while a prompt
 * names them either way: a tool is mentioned by its full name anywhere in the text, or by its own name (the part after
 * the last `.`, `/`, `:` or `__`) as a whole word, so `exec_command` calls `functions__exec_command` but `read` inside
 * "already" calls nothing. A full-name mention wins over a short one. Case is ignored.
 */
export function mentionedTool<T extends { name: string }>(text: string, tools: readonly T[]): T | undefined {
  const lower = text.toLowerCase();
  return tools.find((t) => lower.includes(t.name.toLowerCase())) ?? tools.find((t) => mentionsWord(lower, shortName(t.name)));
}

/** `functions.exec_command`, `mcp__fs__read_file`, `fs/read`, `ns:tool` → the last part. */
function shortName(name: string): string {
  return (
    name
      .toLowerCase()
      .split(/__|[./:]/)
      .filter(Boolean)
      .at(-1) ?? name.toLowerCase()
  );
}

/** `word` in `text` not glued to letters, digits, `_` or `-` on either side. */
function mentionsWord(text: string, word: string): boolean {
  if (!word) return false;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if (!isNamePart(before) && !isNamePart(after)) return true;
  }
  return false;
}

const isNamePart = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_-]/u.test(c);
