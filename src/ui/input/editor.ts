// The prompt's line editor as a pure state machine: a key goes in, the next
// state (and maybe an action for the terminal layer) comes out. No I/O here, so
// every binding is tested without a terminal.
//
// A paste of more than a few lines (or a long one) is not put in the buffer: a
// single marker character stands for it (a private-use code point, which the
// renderer draws as `[pasted 3,000 lines]`), and the paste itself waits in
// `pastes` until Enter, which puts every marker's text back in its place. One
// character per paste keeps it whole under every edit: the cursor steps over
// it, Backspace removes it all, and whatever surrounds it is sent around it.

import {
  displayWidth, isNonSpace, isWordChar, lineEnd, lineStart, nextBoundary, offsetAtColumn,
  prevBoundary, wordEndAfter, wordStartBefore,
} from "./editor-text";
import type { InputView } from "./input-render";
import type { Key } from "./keys";
import { safeText } from "../render/safe-text";

export interface EditorState {
  /** The buffer; lines are separated by "\n", a large paste is one marker character. */
  readonly text: string;
  /** UTF-16 offset into text, always on a grapheme boundary. */
  readonly cursor: number;
  /** Oldest first, as sent (pastes in full). */
  readonly history: readonly string[];
  /** Which entry is shown; history.length means the person's own draft. */
  readonly historyIndex: number;
  /** The draft, kept while browsing history so coming back down restores it. */
  readonly draft: string;
  /** Marker character -> the paste it stands for. */
  readonly pastes: ReadonlyMap<string, Paste>;
  /** Ctrl+R: the history search under way. */
  readonly search?: HistorySearch;
}

export interface Paste {
  readonly text: string;
  /** What is drawn in its place: `[pasted 3,000 lines]`. */
  readonly label: string;
}

export interface HistorySearch {
  readonly query: string;
  /** The entry matched (an index into history), or -1 while nothing matches yet. */
  readonly index: number;
  /** Where the match starts in that entry. */
  readonly at: number;
  /** The query matches nothing (older): the last match stays shown. */
  readonly failed: boolean;
  /** The buffer as it was when the search began; Esc puts it back. */
  readonly before: { readonly text: string; readonly cursor: number };
}

export type EditorAction =
  | { type: "submit"; text: string }
  | { type: "quit" }
  /** Ctrl+C on an empty prompt: the terminal layer quits on the second one in a row. */
  | { type: "interrupt" }
  /** Ctrl+L: the terminal layer clears the screen and redraws the prompt. */
  | { type: "clearScreen" };

export interface EditorResult {
  state: EditorState;
  action?: EditorAction;
}

/** A paste with more lines than this, or more characters than PASTE_MAX_CHARS, is shown as a placeholder. */
export const PASTE_MAX_LINES = 5;
export const PASTE_MAX_CHARS = 2000;

const NO_PASTES: ReadonlyMap<string, Paste> = new Map();

export function createEditor(history: readonly string[] = []): EditorState {
  return { text: "", cursor: 0, history, historyIndex: history.length, draft: "", pastes: NO_PASTES };
}

// Markers: Supplementary Private Use Area-B, which no text means anything by.
// Unique in the process, so pastes recalled from history never collide with
// the draft's. Typed or small pasted text loses any such character (to U+FFFD):
// it could otherwise be taken for a marker.
const FIRST_MARKER = 0x100000;
const LAST_MARKER = 0x10fffd;
const MARKERS = /[\u{100000}-\u{10fffd}]/gu;
let nextMarker = FIRST_MARKER;

function newMarker(): string {
  const marker = String.fromCodePoint(nextMarker);
  nextMarker = nextMarker === LAST_MARKER ? FIRST_MARKER : nextMarker + 1;
  return marker;
}

const count = (n: number) => n.toLocaleString("en-US");

/** Newlines in text, without splitting it. */
function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The placeholder's words: lines when there are several, characters for one long line. */
export function pasteLabel(text: string): string {
  const lines = newlines(text.endsWith("\n") ? text.slice(0, -1) : text) + 1;
  return lines > 1 ? `[pasted ${count(lines)} lines]` : `[pasted ${count(text.length)} characters]`;
}

function isLargePaste(text: string): boolean {
  if (text.length > PASTE_MAX_CHARS) return true;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < text.length - 1; i = text.indexOf("\n", i + 1)) if (++lines > PASTE_MAX_LINES) return true;
  return false;
}

/** The text with every marker replaced by its paste: what is sent. */
export function expandPastes(text: string, pastes: ReadonlyMap<string, Paste>): string {
  if (pastes.size === 0) return text;
  return text.replace(MARKERS, (marker) => pastes.get(marker)?.text ?? marker);
}

/**
 * Recently sent prompts that held placeholders, by the text sent: Up brings
 * such a prompt back as it was typed, placeholders included, not as thousands
 * of lines. Bounded: older ones come back in full.
 */
const collapsed = new Map<string, { text: string; pastes: ReadonlyMap<string, Paste> }>();
const COLLAPSED_KEPT = 20;

function rememberCollapsed(sent: string, text: string, pastes: ReadonlyMap<string, Paste>): void {
  const used = new Map([...pastes].filter(([marker]) => text.includes(marker)));
  if (used.size === 0) return;
  collapsed.delete(sent);
  collapsed.set(sent, { text, pastes: used });
  if (collapsed.size > COLLAPSED_KEPT) collapsed.delete(collapsed.keys().next().value!);
}

/**
 * A recalled entry longer than this (and not sent from here) comes back as one
 * placeholder, as a paste would: editing a string copies it, so a buffer of
 * megabytes would make every key cost milliseconds.
 */
export const RECALL_MAX_CHARS = 100_000;

/** A history entry as the buffer shows it: placeholders restored when it was sent from here; a huge one as a placeholder. */
function recall(state: EditorState, entry: string): { text: string; pastes: ReadonlyMap<string, Paste> } {
  const known = collapsed.get(entry);
  if (known) return { text: known.text, pastes: new Map([...state.pastes, ...known.pastes]) };
  if (entry.length <= RECALL_MAX_CHARS) return { text: entry, pastes: state.pastes };
  const marker = newMarker();
  return { text: marker, pastes: new Map(state.pastes).set(marker, { text: entry, label: pasteLabel(entry) }) };
}

/** Appends a submitted entry unless it repeats the previous one. */
function addToHistory(history: readonly string[], entry: string): readonly string[] {
  return history.at(-1) === entry ? history : [...history, entry];
}

const edit = (s: EditorState, text: string, cursor: number): EditorState => ({ ...s, text, cursor });
const moveTo = (s: EditorState, cursor: number): EditorState => ({ ...s, cursor });
const insert = (s: EditorState, inserted: string): EditorState =>
  edit(s, s.text.slice(0, s.cursor) + inserted + s.text.slice(s.cursor), s.cursor + inserted.length);
/** Deletes [from, to) and leaves the cursor at from. */
const remove = (s: EditorState, from: number, to: number): EditorState =>
  edit(s, s.text.slice(0, from) + s.text.slice(to), from);

/** Typed or pasted text into the buffer: a large paste as a marker, anything else as it is. */
function insertText(state: EditorState, text: string, pasted: boolean): EditorState {
  if (pasted && isLargePaste(text)) {
    const marker = newMarker();
    const pastes = new Map(state.pastes).set(marker, { text, label: pasteLabel(text) });
    return insert({ ...state, pastes }, marker);
  }
  return insert(state, text.replace(MARKERS, "\ufffd"));
}

/** Replaces [from, to) with text (Tab completion), the cursor after it. */
export function replaceRange(state: EditorState, from: number, to: number, text: string): EditorState {
  const clean = text.replace(MARKERS, "\ufffd");
  return edit(state, state.text.slice(0, from) + clean + state.text.slice(to), from + clean.length);
}

export function handleKey(state: EditorState, key: Key): EditorResult {
  if (state.search) return searchKey(state, state.search, key);
  if (key.type === "text" || key.type === "paste") return { state: insertText(state, key.text, key.type === "paste") };
  const { text, cursor } = state;
  const { name, ctrl, alt, shift } = key;
  const plain = !ctrl && !alt;

  if (name === "enter" && (alt || shift || ctrl)) return { state: insert(state, "\n") };
  if (name === "j" && ctrl) return { state: insert(state, "\n") };
  if (name === "enter") return enter(state);

  if (name === "c" && ctrl) return text === "" ? { state, action: { type: "interrupt" } } : { state: createEditor(state.history) };
  if (name === "d" && ctrl && !alt) {
    if (text === "") return { state, action: { type: "quit" } };
    return { state: remove(state, cursor, nextBoundary(text, cursor)) };
  }
  if (name === "l" && ctrl) return { state, action: { type: "clearScreen" } };
  if (name === "r" && ctrl) {
    return { state: { ...state, search: { query: "", index: -1, at: 0, failed: false, before: { text, cursor } } } };
  }

  // Word-wise: Alt or Ctrl with an arrow, Alt+B/F, Alt/Ctrl+Backspace, Alt+D, Ctrl+Delete.
  if ((name === "left" && !plain) || (name === "b" && alt)) return { state: moveTo(state, wordStartBefore(text, cursor, isWordChar)) };
  if ((name === "right" && !plain) || (name === "f" && alt)) return { state: moveTo(state, wordEndAfter(text, cursor, isWordChar)) };
  if (name === "backspace" && !plain) return { state: remove(state, wordStartBefore(text, cursor, isWordChar), cursor) };
  if ((name === "d" && alt) || (name === "delete" && !plain)) return { state: remove(state, cursor, wordEndAfter(text, cursor, isWordChar)) };
  if (name === "w" && ctrl) return { state: remove(state, wordStartBefore(text, cursor, isNonSpace), cursor) };

  if (name === "left" || (name === "b" && ctrl)) return { state: moveTo(state, prevBoundary(text, cursor)) };
  if (name === "right" || (name === "f" && ctrl)) return { state: moveTo(state, nextBoundary(text, cursor)) };
  if (name === "home" || (name === "a" && ctrl)) return { state: moveTo(state, lineStart(text, cursor)) };
  if (name === "end" || (name === "e" && ctrl)) return { state: moveTo(state, lineEnd(text, cursor)) };
  if (name === "up" || (name === "p" && ctrl)) return { state: up(state) };
  if (name === "down" || (name === "n" && ctrl)) return { state: down(state) };

  if (name === "backspace") return { state: remove(state, prevBoundary(text, cursor), cursor) };
  if (name === "delete") return { state: remove(state, cursor, nextBoundary(text, cursor)) };
  if (name === "u" && ctrl) return { state: remove(state, lineStart(text, cursor), cursor) };
  if (name === "k" && ctrl) {
    // At the end of a line, Ctrl+K joins the next line (as Emacs does) rather than doing nothing.
    const end = lineEnd(text, cursor);
    return { state: remove(state, cursor, end === cursor ? Math.min(text.length, end + 1) : end) };
  }
  if (name === "tab" && plain && !shift) return { state: insert(state, "\t") };
  // Anything else (Escape, function keys, unbound Ctrl/Alt letters) changes nothing.
  return { state };
}

function enter(state: EditorState): EditorResult {
  const { text, cursor } = state;
  // "\" at the end of a line then Enter continues the input on a new line, as shells do.
  if (text[cursor - 1] === "\\" && lineEnd(text, cursor) === cursor) {
    return { state: edit(state, `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`, cursor) };
  }
  if (text.trim() === "") return { state };
  const sent = expandPastes(text, state.pastes);
  rememberCollapsed(sent, text, state.pastes);
  const history = addToHistory(state.history, sent);
  return { state: createEditor(history), action: { type: "submit", text: sent } };
}

/** Up: to the line above, or from the first line to the previous history entry (cursor at its end). */
function up(state: EditorState): EditorState {
  const { text, cursor } = state;
  const start = lineStart(text, cursor);
  if (start > 0) {
    const above = lineStart(text, start - 1);
    return moveTo(state, offsetAtColumn(text, above, displayWidth(text.slice(start, cursor))));
  }
  if (state.historyIndex === 0) return state;
  return showEntry(state, state.historyIndex - 1, "end");
}

/** Down: to the line below, or from the last line to the next history entry (cursor at the end of its first line), then the draft. */
function down(state: EditorState): EditorState {
  const { text, cursor } = state;
  const end = lineEnd(text, cursor);
  if (end < text.length) {
    const column = displayWidth(text.slice(lineStart(text, cursor), cursor));
    return moveTo(state, offsetAtColumn(text, end + 1, column));
  }
  if (state.historyIndex === state.history.length) return state;
  return showEntry(state, state.historyIndex + 1, "firstLine");
}

/** Shows history entry `index` (history.length: the draft), keeping the draft when leaving it. */
function showEntry(state: EditorState, index: number, cursorAt: "end" | "firstLine"): EditorState {
  const draft = state.historyIndex === state.history.length ? state.text : state.draft;
  const shown = index === state.history.length ? { text: draft, pastes: state.pastes } : recall(state, state.history[index]!);
  const cursor = cursorAt === "end" || index === state.history.length ? shown.text.length : lineEnd(shown.text, 0);
  return { ...state, text: shown.text, pastes: shown.pastes, cursor, historyIndex: index, draft };
}

// Ctrl+R, as in readline: typing narrows the search, Ctrl+R again finds an
// older match, Backspace widens it; Enter sends the match, Esc (or Ctrl+G,
// Ctrl+C) goes back to what was typed, Tab takes the match into the buffer to
// edit, and any other key takes it, then does what it does.

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The newest entry at or before `from` holding query (case-insensitive), or undefined. */
function findOlder(history: readonly string[], query: string, from: number): { index: number; at: number } | undefined {
  if (!query) return undefined;
  const pattern = new RegExp(escapeRegExp(query), "i");
  for (let i = Math.min(from, history.length - 1); i >= 0; i--) {
    const match = pattern.exec(history[i]!);
    if (match) return { index: i, at: match.index };
  }
  return undefined;
}

function searchFor(state: EditorState, search: HistorySearch, query: string, from: number): EditorState {
  const found = findOlder(state.history, query, from);
  if (found) return { ...state, search: { ...search, query, ...found, failed: false } };
  return { ...state, search: { ...search, query, failed: query !== "" } };
}

function searchKey(state: EditorState, search: HistorySearch, key: Key): EditorResult {
  const newest = state.history.length - 1;
  if (key.type === "text" || key.type === "paste") {
    const query = search.query + key.text.replace(/\n/g, " ");
    return { state: searchFor(state, search, query, search.index >= 0 ? search.index : newest) };
  }
  const { name, ctrl, alt } = key;
  if (name === "r" && ctrl) return { state: search.index >= 0 ? searchFor(state, search, search.query, search.index - 1) : state };
  if (name === "backspace" && !ctrl && !alt) {
    const query = Array.from(search.query).slice(0, -1).join("");
    return { state: query ? searchFor(state, search, query, newest) : { ...state, search: { ...search, query, index: -1, at: 0, failed: false } } };
  }
  if (name === "escape" || ((name === "g" || name === "c") && ctrl)) {
    const { search: _, ...rest } = state;
    return { state: { ...rest, text: search.before.text, cursor: search.before.cursor } };
  }
  const accepted = acceptSearch(state, search);
  if (name === "tab") return { state: accepted }; // Tab only takes the match
  return handleKey(accepted, key);
}

/** The state with any history search ended, its match taken: what a submitted prompt is drawn as. */
export function endSearch(state: EditorState): EditorState {
  return state.search ? acceptSearch(state, state.search) : state;
}

/** Leaves the search with its match in the buffer (cursor at its end), or what was typed when nothing matched. */
function acceptSearch(state: EditorState, search: HistorySearch): EditorState {
  const { search: _, ...rest } = state;
  if (search.index < 0) return { ...rest, text: search.before.text, cursor: search.before.cursor };
  const draft = state.historyIndex === state.history.length ? search.before.text : state.draft;
  const shown = recall(state, state.history[search.index]!);
  return { ...rest, text: shown.text, pastes: shown.pastes, cursor: shown.text.length, historyIndex: search.index, draft };
}

/** What the terminal layer draws for this state: the buffer after the prompt, or the search and its match. */
export function viewOf(state: EditorState, prompt: string, continuation: string): InputView {
  const labels = state.pastes;
  const { search } = state;
  if (!search) return { prompt, continuation, text: state.text, cursor: state.cursor, labels };
  const searchPrompt = `(${search.failed ? "failed " : ""}reverse-i-search)\`${safeText(search.query)}': `;
  if (search.index < 0) return { prompt: searchPrompt, continuation, text: search.before.text, cursor: search.before.cursor, labels };
  const entry = state.history[search.index]!;
  return { prompt: searchPrompt, continuation, text: entry, cursor: search.at, labels };
}
