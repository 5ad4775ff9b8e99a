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
import { expandTabs, oneLine } from "../render/format";
import { safeText } from "../render/safe-text";
import { toolLine, toolWidth } from "../live/turn-lines";
import { wrapText } from "../render/wrap";

const isPrompt = (m: Message) => m.role === "user" && m.content.some((b) => b.type === "text" && b.text.trim());

/** The latest turn: from its prompt on. */
function latestTurn(messages: readonly Message[]): { turn: readonly Message[]; started: boolean } {
  const start = messages.findLastIndex(isPrompt);
  return { turn: messages.slice(Math.max(0, start)), started: start >= 0 };
}

/** A subagent of the latest turn: its call's id and task. */
interface TurnChild {
  id: string;
  task: string;
}

/** The `task` calls of the latest turn whose subagents left a transcript, in order. */
function turnChildren(turn: readonly Message[], transcriptOf: (callId: string) => readonly DiskMessage[]): TurnChild[] {
  return turn.flatMap((m) => (m.role === "assistant" ? m.content : [])).flatMap((b) => (b.type === "toolUse" && transcriptOf(b.id).length ? [{ id: b.id, task: toolSummary(b.name, b.input) }] : []));
}

/**
 * Ctrl+O, pressed again and again at the prompt: the latest turn in full
 * (with a list of its subagents), then each subagent's whole transcript in
 * turn, then the turn again. A new turn starts over from the turn.
 */
export function unfolder(messages: () => readonly Message[], transcriptOf: (callId: string) => readonly DiskMessage[], c: Colors): (columns: number) => string[] {
  let shown: { turn: Message | undefined; step: number } | undefined;
  return (columns) => {
    const { turn } = latestTurn(messages());
    const children = turnChildren(turn, transcriptOf);
    const step = shown && shown.turn === turn[0] ? (shown.step + 1) % (children.length + 1) : 0;
    shown = { turn: turn[0], step };
    const child = children[step - 1];
    if (!child) return unfoldedRows(messages(), c, columns, children);
    const heading = c.dim(`Subagent ${step} of ${children.length}: ${oneLine(child.task, Math.max(8, columns - 30))}, its whole transcript:`);
    const next = c.dim(step < children.length ? "Ctrl+O again shows the next subagent." : "Ctrl+O again shows the turn.");
    return [heading, ...childRows(transcriptOf(child.id), c, columns), next];
  };
}

/** The rows Ctrl+O prints: the latest turn's thinking and tool results, in full, in the order they came, then the list of its subagents (`children`). */
export function unfoldedRows(messages: readonly Message[], c: Colors, columns: number, children: readonly TurnChild[] = []): string[] {
  const { turn, started } = latestTurn(messages);
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
    }
  }
  if (!rows.length) return [c.dim(!started ? "Ctrl+O: no turn yet." : "Ctrl+O: the latest turn has no thinking or tool output to show.")];
  const list = children.length ? [c.dim(`Subagents of this turn (Ctrl+O again shows each one's whole transcript in turn):`), ...children.map((child, i) => c.dim(`  ${i + 1}. ${oneLine(child.task, Math.max(8, columns - 8))}`))] : [];
  return [c.dim("The latest turn's thinking and tool output, in full:"), ...rows, ...list];
}

/** A subagent's whole transcript, as Ctrl+O shows it: its task, what it said and thought, each call with its full result, and where it was cut off. */
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
