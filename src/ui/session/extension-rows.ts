// An extension's entry (`custom`, `custom_message`) as the REPL shows it, live
// and in a resumed transcript: the lines its extension's renderer gives
// (docs/extensions.md), made safe to show and cut to fit; without one (the
// extension not loaded here, none registered, or its renderer failed), one
// dim line of the kind table's words, as /tree shows it.
import { rowOf, type CustomEntry, type CustomMessageEntry } from "../../session";
import type { Colors } from "../render/colors";
import { oneLine, previewLines } from "../render/format";

export type ExtensionEntry = CustomEntry | CustomMessageEntry;

/** An entry's lines as its renderer gives them (plain, untrusted); undefined when there is none to ask (ExtensionHost.renderEntry). */
export type RenderEntry = (entry: ExtensionEntry) => string[] | undefined;

/** The most lines one entry takes: a renderer's output is its extension's, not a page of the transcript. */
const ENTRY_LINES = 12;
/** The most text read of a renderer's answer. */
const ENTRY_CHARACTERS = 16_384;

export function extensionRows(entry: ExtensionEntry, c: Colors, width: number, render?: RenderEntry): string[] {
  const lines = render?.(entry);
  return lines ? renderedRows(lines, c, width) : [c.dim(`· ${oneLine(rowOf(entry).words(entry, (text) => text), width - 2)}`)];
}

/** A renderer's lines, safe to show and cut to fit: at most ENTRY_LINES, each within `width` columns. */
export function renderedRows(lines: readonly string[], c: Colors, width: number): string[] {
  const shown = previewLines(lines.join("\n").slice(0, ENTRY_CHARACTERS), ENTRY_LINES, width);
  return [...shown.lines, ...(shown.more > 0 ? [c.dim(`… ${shown.more} more line${shown.more === 1 ? "" : "s"}`)] : [])];
}

/** An entry as it is written, live: what its renderer gives; nothing without one (a transcript shows the rest as dim lines), nor for a custom_message not for display. */
export function writtenRows(entry: ExtensionEntry, c: Colors, width: number, render?: RenderEntry): string[] {
  const lines = entry.type === "custom_message" && !entry.display ? undefined : render?.(entry);
  return lines ? renderedRows(lines, c, width) : [];
}
