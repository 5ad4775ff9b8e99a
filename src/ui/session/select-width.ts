// How wide a row of clack's select may be before clack wraps it. clack wraps
// a row at the terminal's width less the length of its bar as a string, escape
// codes included: with colour on, ten columns early. It also draws "● " before
// each row. Rows awl lays out for a select (/tree, /rewind) fit this width.
import { styleText } from "node:util";
import { S_BAR } from "@clack/prompts";

export function selectRowWidth(out: { columns?: number }): number {
  // The same call as clack's, so the same escape codes (none without colour).
  const bar = `${styleText("cyan", S_BAR)}  `.length;
  return Math.max(10, (out.columns || 100) - bar - 2 - 1); // the radio and its space; a column to spare
}
