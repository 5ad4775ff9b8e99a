// The prompt's line editor as a pure state machine: a key goes in, the next
// state (and maybe an action for the terminal layer) comes out. No I/O here, so
// every binding is tested without a terminal.

import {
  displayWidth, isNonSpace, isWordChar, lineEnd, lineStart, nextBoundary, offsetAtColumn,
  prevBoundary, wordEndAfter, wordStartBefore,
} from "./editor-text";
import type { Key } from "./keys";

export interface EditorState {
  /** The buffer; lines are separated by "\n". */
  readonly text: string;
  /** UTF-16 offset into text, always on a grapheme boundary. */
  readonly cursor: number;
  /** Oldest first. */
  readonly history: readonly string[];
  /** Which entry is shown; history.length means the person's own draft. */
  readonly historyIndex: number;
  /** The draft, kept while browsing history so coming back down restores it. */
  readonly draft: string;
}

export type EditorAction =
  | { type: "submit"; text: string }
  | { type: "quit" }
  /** Ctrl+L: the terminal layer clears the screen and redraws the prompt. */
  | { type: "clearScreen" };

export interface EditorResult {
  state: EditorState;
  action?: EditorAction;
}

export function createEditor(history: readonly string[] = []): EditorState {
  return { text: "", cursor: 0, history, historyIndex: history.length, draft: "" };
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

export function handleKey(state: EditorState, key: Key): EditorResult {
  if (key.type === "text" || key.type === "paste") return { state: insert(state, key.text) };
  const { text, cursor } = state;
  const { name, ctrl, alt, shift } = key;
  const plain = !ctrl && !alt;

  if (name === "enter" && (alt || shift || ctrl)) return { state: insert(state, "\n") };
  if (name === "j" && ctrl) return { state: insert(state, "\n") };
  if (name === "enter") return enter(state);

  if (name === "c" && ctrl) return text === "" ? { state, action: { type: "quit" } } : { state: createEditor(state.history) };
  if (name === "d" && ctrl && !alt) {
    if (text === "") return { state, action: { type: "quit" } };
    return { state: remove(state, cursor, nextBoundary(text, cursor)) };
  }
  if (name === "l" && ctrl) return { state, action: { type: "clearScreen" } };

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
  const history = addToHistory(state.history, text);
  return { state: createEditor(history), action: { type: "submit", text } };
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
  const draft = state.historyIndex === state.history.length ? text : state.draft;
  const entry = state.history[state.historyIndex - 1]!;
  return { ...state, text: entry, cursor: entry.length, historyIndex: state.historyIndex - 1, draft };
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
  const index = state.historyIndex + 1;
  const entry = index === state.history.length ? state.draft : state.history[index]!;
  const cursorAt = index === state.history.length ? entry.length : lineEnd(entry, 0);
  return { ...state, text: entry, cursor: cursorAt, historyIndex: index };
}
