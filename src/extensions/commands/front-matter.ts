// The front matter of a Markdown command, as Claude Code's custom slash
// commands write it: between two `---` lines at the top, `key: value` lines
// (description, argument-hint, allowed-tools, model). Only that flat form is
// read; a line that is not `key: value` is named and skipped.

export interface FrontMatter {
  fields: Record<string, string>;
  /** The text after the front matter (all of it when there is none). */
  body: string;
  /** 1-based lines of the file that could not be read as `key: value`. */
  badLines: number[];
}

export function frontMatter(text: string): FrontMatter {
  const lines = text.split("\n");
  if (lines[0]?.trimEnd() !== "---") return { fields: {}, body: text, badLines: [] };
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (end === -1) return { fields: {}, body: text, badLines: [1] };
  const fields: Record<string, string> = {};
  const badLines: number[] = [];
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = /^([\w-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) {
      badLines.push(i + 1);
      continue;
    }
    fields[match[1]!] = unquote(match[2]!.trim());
  }
  return { fields, body: lines.slice(end + 1).join("\n"), badLines };
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
