// The lines a turn leaves in the output, shared by the live renderer
// (./render.ts) and the transcript a resumed session opens with
// (./transcript.ts), so that a turn read back looks as it did: the line that
// announces a tool call, the preview of its result (a diff for write and
// edit), a call that never ran, an error, "Interrupted.", the usage line, a
// compaction. Everything from a model, a tool or an API is made safe first
// (oneLine, previewLines, safeText); only awl's own styling is added.

import { INTERRUPTED_NOT_RUN, type ContextMeter } from "../agent/events";
import type { Usage } from "../providers/provider";
import type { FileChange } from "../tools/tool";
import type { Colors } from "./colors";
import { renderChange } from "./diff-view";
import { compactedLine, joinParts, meterText, oneLine, previewLines, usageParts } from "./format";
import { safeText } from "./safe-text";

/** Lines of a tool's result shown under its line (one when a diff follows). */
export const PREVIEW_LINES = 3;

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
  /** The line of the file `change.before` starts at, when it is an excerpt (1: the whole file). */
  changeAt?: number;
  /** A dim line after the preview (why there is no diff). */
  note?: string;
}

/**
 * A result under its call's line: its first lines as they would look in a
 * terminal (indentation and columns kept, cut by display width), red for an
 * error; and for write and edit, the diff of what they changed.
 */
export function toolResultRows(result: ShownResult, c: Colors, width: number): string[] {
  const diff = result.change && !result.isError ? renderChange(result.change, c, width, undefined, result.changeAt) : undefined;
  const { lines, more } = previewLines(result.content, diff ? 1 : PREVIEW_LINES, width);
  const style = result.isError ? c.red : c.dim;
  const rows = lines.map((line, i) => style(`${i === 0 ? "  ⎿ " : "    "}${line}`));
  if (diff) rows.push(...diff.map((row) => `    ${row}`));
  else if (more > 0) rows.push(c.dim(`    … ${more} more line${more === 1 ? "" : "s"}`));
  if (result.note) rows.push(c.dim(`    ${result.note}`));
  return rows;
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

export function interruptedRow(c: Colors): string {
  return c.yellow("Interrupted.");
}

/** "↑ 4.1k in · ↓ 212 out · ctx 3% of 200k · effort high", after a turn (broken between parts on a narrow terminal); none when the turn used no tokens. */
export function usageRow(usage: Usage, context: ContextMeter, c: Colors, columns: number, effort?: string): string | undefined {
  if (!usage.input && !usage.output) return undefined;
  return c.dim(joinParts([...usageParts(usage), meterText(context), ...(effort ? [`effort ${effort}`] : [])], columns));
}

export function compactedRow(e: { tokensBefore: number; tokensAfter: number }, c: Colors): string {
  return c.dim(compactedLine(e));
}
