// Small text helpers shared by the renderers and the session views. Those that
// shape text for display (`oneLine`, `preview`, `previewLines`) also make it
// safe to show (./safe-text.ts): what they return never drives the terminal.

import { safeText } from "./safe-text";

/** 1234 -> "1.2k", 1234567 -> "1.2M". */
export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** One line, at most `width` characters, with an ellipsis when cut; safe to show. */
export function oneLine(text: string, width: number): string {
  const flat = safeText(text).replace(/\s+/g, " ").trim();
  if (flat.length <= width) return flat;
  let cut = Math.max(0, width - 1);
  if (/[\ud800-\udbff]/.test(flat[cut - 1] ?? "")) cut--; // never half an emoji (a lone surrogate shows as �)
  return `${flat.slice(0, cut)}…`;
}

/** The first `count` lines of a tool result (its last, `from: "end"`), and how many were left out; safe to show. */
export function preview(text: string, count: number, from: "start" | "end" = "start"): { lines: string[]; more: number } {
  const all = safeText(text).replace(/\n+$/, "").split("\n");
  const more = Math.max(0, all.length - count);
  return { lines: from === "end" ? all.slice(more) : all.slice(0, count), more };
}

/**
 * The first (or last) `count` lines of a tool result as they would look in a terminal,
 * each cut to `width` columns: indentation and tabs (expanded to stops of 8,
 * as `cat -n` output needs) keep their columns, wide characters count two.
 */
export function previewLines(text: string, count: number, width: number, from: "start" | "end" = "start"): { lines: string[]; more: number } {
  const { lines, more } = preview(text, count, from);
  return { lines: lines.map((line) => fitWidth(expandTabs(line), width)), more };
}

/** Tabs as the spaces a terminal would move over (stops every 8 columns), counted by display width. */
export function expandTabs(line: string, tab = 8): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let col = 0;
  for (const part of line.split(/(\t)/)) {
    if (part === "\t") {
      const n = tab - (col % tab);
      out += " ".repeat(n);
      col += n;
    } else {
      out += part;
      col += Bun.stringWidth(part);
    }
  }
  return out;
}

/** `text` cut to `width` display columns, with an ellipsis when cut; never half a grapheme. */
export function fitWidth(text: string, width: number): string {
  if (text.length <= width && Bun.stringWidth(text) <= width) return text;
  // Bun.sliceAnsi with an ellipsis can end one column over when a wide character meets the edge.
  let cut = "…";
  for (let end = width; end >= 1; end--) {
    cut = Bun.sliceAnsi(text, 0, end, "…");
    if (Bun.stringWidth(cut) <= width) break;
  }
  return cut;
}

/**
 * A line (styled or not) as rows of at most `width` columns, broken between
 * words: a word longer than a row is the only thing cut. Its leading spaces
 * stay on the first row; later rows start with `indent` (by default the same
 * spaces). Styles are closed at each row's end and opened again on the next.
 */
export function wrapLine(text: string, width: number, indent?: string): string[] {
  if (text.length <= width || Bun.stringWidth(text) <= width) return [text];
  // The indent may come after a colour's opening sequence (a dimmed line): it is kept, and the rows under it line up.
  const [lead, styles, spaces] = /^((?:\x1b\[[0-9;]*m)*)( *)/.exec(text)! as unknown as [string, string, string];
  const hang = indent ?? spaces;
  const rows = Bun.wrapAnsi(styles + text.slice(lead.length), Math.max(1, width - Math.max(spaces.length, Bun.stringWidth(hang))), { hard: true, trim: true, wordWrap: true });
  return rows.split("\n").map((row, i) => (i === 0 ? spaces : hang) + row);
}

/** Lines awl writes of its own (messages, command output) wrapped between words to a terminal `columns` wide. */
export function wrapLines(text: string, columns: number | undefined): string {
  return columns ? text.split("\n").flatMap((line) => wrapLine(line, columns)).join("\n") : text;
}

/** Local "YYYY-MM-DD HH:MM", as `awl sessions` prints it. */
export function localDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "????-??-?? ??:??";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Local "HH:MM:SS": tells apart moments an age ("3 min ago") shows alike. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "??:??:??";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** "3 min ago", "2 h ago", "5 days ago". */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}

/** "Could not reach <provider> at 127.0.0.1:9: connection refused · attempt 1 of 2, next in 1.0 s": attempt 1 failed (the reason made safe by the caller). */
export function retryText(e: { attempt: number; attempts: number; delayMs: number }, reason: string): string {
  return `${reason} · attempt ${e.attempt} of ${e.attempts}, next in ${(e.delayMs / 1000).toFixed(1)} s`;
}

/** "compacted 182k -> 21k tokens": what a compaction did, in one line. */
export function compactedLine(e: { tokensBefore: number; tokensAfter: number }): string {
  return `compacted ${compactNumber(e.tokensBefore)} -> ${compactNumber(e.tokensAfter)} tokens`;
}

/** "ctx 41% of 200k": how full the model's context is. */
export function meterText(m: { tokens: number; window: number }): string {
  return `ctx ${Math.min(999, Math.round((100 * m.tokens) / m.window))}% of ${compactNumber(m.window)}`;
}

/** ["↑ 4.1k in (38k cached)", "↓ 212 out"]: a turn's tokens, the cache reads apart; "↓ ~212 out" when the output is an estimate. */
export function usageParts(u: { input: number; output: number; cacheRead?: number; cacheWrite?: number }, estimated = false): string[] {
  const cached = u.cacheRead ? ` (${compactNumber(u.cacheRead)} cached)` : "";
  return [`↑ ${compactNumber(u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0))} in${cached}`, `↓ ${estimated ? "~" : ""}${compactNumber(u.output)} out`];
}

/**
 * Parts joined with " · ", each kept whole: a part that would pass `columns`
 * starts a new line, so a narrow terminal breaks the usage line or the
 * banner between parts, never inside one ("ctx 41% of 200k"); a part wider
 * than a whole line alone is wrapped between its words.
 */
export function joinParts(parts: readonly string[], columns: number): string {
  let out = "";
  let width = 0;
  for (const part of parts) {
    const w = Bun.stringWidth(part);
    if (width > 0 && width + 3 + w > columns) {
      out += `\n${part}`;
      width = w;
    } else {
      out += width > 0 ? ` · ${part}` : part;
      width += (width > 0 ? 3 : 0) + w;
    }
  }
  return out.length <= columns ? out : out.split("\n").flatMap((row) => wrapLine(row, columns)).join("\n");
}
