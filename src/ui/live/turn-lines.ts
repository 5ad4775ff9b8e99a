// The lines a turn leaves in the output, shared by the live renderer
// (./render.ts) and the transcript a resumed session opens with
// (./transcript.ts), so that a turn read back looks as it did: the line that
// announces a tool call, the preview of its result (a diff for write and
// edit), a call that never ran, an error, "Interrupted.", the usage line, a
// compaction. Everything from a model, a tool or an API is made safe first
// (oneLine, previewLines, safeText); only awl's own styling is added.

import { INTERRUPTED_NOT_RUN, type ContextMeter } from "../../agent/events";
import { isInterrupted, type DiskMessage } from "../../session";
import type { Usage } from "../../providers/provider";
import type { CallEffect, FileChange } from "../../tools/tool";
import type { Colors } from "../render/colors";
import { renderChange } from "../render/diff-view";
import { compactedLine, fitWidth, joinParts, meterText, oneLine, previewLines, usageParts } from "../render/format";
import { safeText } from "../render/safe-text";
import { seconds } from "./status-line";
import { wrapText } from "../render/wrap";

/** Lines of a tool's result shown under its line (one when a diff follows). */
export const PREVIEW_LINES = 3;
/** Lines of a command's output shown: its end, where a test run's failures and summary are, and the exit code. */
export const TAIL_PREVIEW_LINES = 5;
/** How the person sees what a preview or a folded line leaves out. */
export const UNFOLD_HINT = "ctrl+o shows all";

/** How wide tool lines and previews may be on a terminal `columns` wide: their 4-column indent and a margin left, so a row never wraps. */
export function toolWidth(columns: number): number {
  return Math.max(16, columns - 6);
}

/** `● bash ls -la`: a call, by its tool's name and main argument. */
export function toolLine(name: string, summary: string, c: Colors, width: number): string {
  const shown = oneLine(name, 60); // a model may name a tool that does not exist, with any bytes
  return `${c.cyan("●")} ${c.bold(shown)} ${oneLine(summary, width - shown.length)}`;
}

export interface ShownResult {
  content: string;
  isError: boolean;
  /** What write or edit changed, shown as a diff. */
  change?: FileChange;
  /** A dim line after the preview (why there is no diff). */
  note?: string;
}

/** "1 more line", "37 earlier lines". */
const lines = (n: number, which: string) => `${n.toLocaleString("en-US")} ${which} line${n === 1 ? "" : "s"}`;

/**
 * A result under its call's line, as it would look in a terminal
 * (indentation and columns kept, cut by display width), red for an error: a
 * command's (an `exec` call's) last lines, after how many came before them; any
 * other tool's first lines, then how many follow; and for write and edit, the
 * diff of what they changed. Ctrl+O shows the latest turn's in full.
 */
export function toolResultRows(result: ShownResult, c: Colors, width: number, effect?: CallEffect["kind"]): string[] {
  const diff = result.change && !result.isError ? renderChange(result.change, c, width) : undefined;
  const fromEnd = effect === "exec" && !diff;
  const shown = previewLines(result.content, diff ? 1 : fromEnd ? TAIL_PREVIEW_LINES : PREVIEW_LINES, width, fromEnd ? "end" : "start");
  const rows: string[] = [];
  const row = (text: string, style: (s: string) => string) => rows.push(style(`${rows.length === 0 ? "  ⎿ " : "    "}${text}`));
  /** How many lines the preview leaves out, and the key that shows them when there is room for it. */
  const hidden = (text: string) => (Bun.stringWidth(`${text} (${UNFOLD_HINT})`) <= width ? `${text} (${UNFOLD_HINT})` : fitWidth(text, width));
  if (fromEnd && shown.more > 0) row(hidden(`… ${lines(shown.more, "earlier")}`), c.dim);
  for (const line of shown.lines) row(line, result.isError ? c.red : c.dim);
  if (diff) rows.push(...diff.map((line) => `    ${line}`));
  else if (!fromEnd && shown.more > 0) row(hidden(`… ${lines(shown.more, "more")}`), c.dim);
  if (result.note) row(result.note, c.dim);
  return rows;
}

/** `∴ Thought for 4s`: a thinking block, folded (how long it took is known live only). */
export function thoughtRow(c: Colors, ms?: number): string {
  return c.dim(`∴ Thought${ms === undefined ? "" : ` for ${seconds(ms)}`}`);
}

/** Under a call that never ran (the turn ended first): what its result in the session says. */
export function notRunRow(c: Colors): string {
  return c.red(`  ⎿ ${INTERRUPTED_NOT_RUN}`);
}

/** A response that failed: the API's or awl's line. */
export function errorRow(message: string, c: Colors): string {
  return c.red(safeText(message));
}

export function lengthRow(c: Colors): string {
  return c.yellow("(the response hit the output token limit)");
}

/**
 * After a response that failed or was interrupted before anything of it was
 * kept (a 401, a dropped connection, Esc before the first word): the prompt
 * is in the session all the same, unanswered, and the next request carries it
 * with the next prompt (the provider joins the two). Said, so that it is not
 * a surprise.
 */
export function unansweredRow(c: Colors, columns: number): string {
  const text = "No answer: this prompt stays in the conversation and goes to the model with your next one.";
  return wrapText(text, Math.max(20, columns - 1)).replace(/\n$/, "").split("\n").map((row) => c.dim(row)).join("\n");
}

export function interruptedRow(c: Colors): string {
  return c.yellow("Interrupted.");
}

/** "↑ 4.1k in · ↓ 212 out · ctx 3% of 200k · effort high · $0.0123 so far", after a turn (broken between parts on a narrow terminal); none when the turn used no tokens. `estimated`: the output count is an estimate (a response cut off); `cost`: the session's so far. */
export function usageRow(usage: Usage, context: ContextMeter, c: Colors, columns: number, options: { effort?: string; estimated?: boolean; cost?: string } = {}): string | undefined {
  if (!usage.input && !usage.output) return undefined;
  const cost = options.cost ? [`${options.cost} so far`] : [];
  return c.dim(joinParts([...usageParts(usage, options.estimated ?? false), meterText(context), ...(options.effort ? [`effort ${options.effort}`] : []), ...cost], columns));
}

/**
 * The output tokens of a response cut off (interrupted, or failed part-way).
 * The API's count never came (the Messages API's first event says 1 until the last
 * one says how many): at least what had streamed, at 4 characters a token, as
 * the status line counts it. Shown as an estimate, "↓ ~120 out".
 */
export function cutOffOutput(reported: number, streamedCharacters: number): number {
  return Math.max(reported, Math.ceil(streamedCharacters / 4));
}

export function compactedRow(e: { tokensBefore: number; tokensAfter: number }, c: Colors): string {
  return c.dim(compactedLine(e));
}

/** Under a `task` call read back: what its subagent did, in one row (Ctrl+O shows its whole transcript). */
export function subagentRow(messages: readonly DiskMessage[], c: Colors, width: number): string {
  const calls = messages.reduce((n, m) => n + (m.role === "assistant" ? m.content.filter((b) => b.type === "toolUse").length : 0), 0);
  const last = messages.at(-1);
  const state = last?.role === "assistant" && isInterrupted(last) ? "interrupted" : last?.role === "assistant" && last.stopReason === "stop" ? "done" : "stopped";
  return subagentLine(state, calls, c, width);
}

/** `⎿ subagent done after 3 tool calls`: how a subagent ended, under its call (the same live and read back). */
export function subagentLine(state: "done" | "interrupted" | "stopped", calls: number, c: Colors, width: number): string {
  const text = `  ⎿ subagent ${state} after ${calls} tool call${calls === 1 ? "" : "s"} (${UNFOLD_HINT})`;
  return state === "done" ? c.dim(fitWidth(text, width)) : c.yellow(fitWidth(text, width));
}
