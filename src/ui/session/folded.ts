// Ctrl+O: what the latest turn showed folded, in full. Live, thinking is one
// line (`∴ Thought for 4s`) and a tool's output a few lines of preview
// (./turn-lines.ts); at the prompt, Ctrl+O prints that turn's thinking and each
// tool call's whole result above the input, as the conversation holds them
// (which is also what a resumed session holds, so it works the same after
// --resume). A key pressed during a turn waits for the prompt like any other
// typed ahead, so Ctrl+O then shows the turn once it is over. Everything is
// made safe (./safe-text.ts) and wrapped to the width before it is styled.

import type { Message, ToolResultBlock } from "../../conversation";
import { isInterrupted, type DiskMessage } from "../../session";
import { toolSummary } from "../../tools";
import type { Colors } from "../render/colors";
import { expandTabs } from "../render/format";
import { safeText } from "../render/safe-text";
import { toolLine, toolWidth } from "../live/turn-lines";
import { wrapText } from "../render/wrap";

const isPrompt = (m: Message) => m.role === "user" && m.content.some((b) => b.type === "text" && b.text.trim());

/** The rows Ctrl+O prints: the latest turn's thinking and tool results, in full, in the order they came; under a `task` call, its subagent's whole transcript (`transcriptOf`). */
export function unfoldedRows(messages: readonly Message[], c: Colors, columns: number, transcriptOf: (callId: string) => readonly DiskMessage[] = () => []): string[] {
  const start = messages.findLastIndex(isPrompt);
  const turn = messages.slice(Math.max(0, start));
  const results = new Map<string, ToolResultBlock>();
  for (const m of turn) for (const b of m.content) if (b.type === "toolResult") results.set(b.toolUseId, b);
  const width = Math.max(8, columns - 5);
  const indented = (text: string, style: (s: string) => string) =>
    wrapText(expandTabs(safeText(text)).replace(/\n+$/, ""), width)
      .replace(/\n$/, "")
      .split("\n")
      .map((row) => style(`    ${row}`));
  const rows: string[] = [];
  for (const m of turn) {
    if (m.role !== "assistant") continue;
    for (const b of m.content) {
      if (b.type === "thinking" && !b.redacted && b.thinking.trim()) rows.push(c.dim("∴ Thinking"), ...indented(b.thinking, (s) => c.dim(c.italic(s))));
      if (b.type !== "toolUse") continue;
      rows.push(toolLine(b.name, toolSummary(b.name, b.input), c, toolWidth(columns)));
      const result = results.get(b.id);
      if (result) rows.push(...indented(result.content || "(no output)", result.isError ? c.red : c.dim));
      const child = transcriptOf(b.id);
      if (child.length) rows.push(c.dim(`    The subagent's transcript:`), ...childRows(child, c, columns).map((row) => `    ${row}`));
    }
  }
  if (!rows.length) return [c.dim(start < 0 ? "Ctrl+O: no turn yet." : "Ctrl+O: the latest turn has no thinking or tool output to show.")];
  return [c.dim("The latest turn's thinking and tool output, in full:"), ...rows];
}

/** A subagent's whole transcript, as Ctrl+O shows it under its call: its task, what it said and thought, each call with its full result, and where it was cut off. */
function childRows(messages: readonly DiskMessage[], c: Colors, columns: number): string[] {
  const width = Math.max(8, columns - 9);
  const text = (value: string, style: (s: string) => string) =>
    wrapText(expandTabs(safeText(value)).replace(/\n+$/, ""), width)
      .replace(/\n$/, "")
      .split("\n")
      .map((row) => style(row));
  const rows: string[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    for (const b of m.content) {
      if (b.type === "text" && b.text.trim()) rows.push(...text(b.text, m.role === "user" ? c.bold : (s) => s));
      else if (b.type === "thinking" && !b.redacted && b.thinking.trim()) rows.push(c.dim("∴ Thinking"), ...text(b.thinking, (s) => c.dim(c.italic(s))));
      else if (b.type === "toolUse") rows.push(toolLine(b.name, toolSummary(b.name, b.input), c, toolWidth(columns - 4)));
      else if (b.type === "toolResult") rows.push(...text(b.content || "(no output)", b.isError ? c.red : c.dim).map((row) => `  ${row}`));
    }
    if (m.role === "assistant" && isInterrupted(m)) rows.push(c.yellow("Interrupted."));
  }
  return rows;
}
