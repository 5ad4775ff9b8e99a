// What was typed while a turn ran, when the turn is interrupted (Esc, Ctrl+C):
// none of it is sent, not even a line sent ahead with Enter (the person stopped
// the turn, and may well have changed their mind). It all goes back into the
// next prompt's box as it was typed, pastes as their placeholders: the lines
// sent ahead first, one per line, then what was still being typed.

import { type EditorState, endSearch, handleKey } from "./editor";
import type { Key } from "./keys";

/** The box after `keys` are typed into `box`, each line they send kept in it instead, on a line of its own. */
export function unsent(box: EditorState, keys: readonly Key[]): EditorState {
  for (const key of keys) {
    const { state: next, action } = handleKey(box, key);
    if (action?.type !== "submit") {
      box = next;
      continue;
    }
    const line = endSearch(box);
    box = { ...next, text: `${line.text}\n`, cursor: line.text.length + 1, pastes: line.pastes };
  }
  box = endSearch(box);
  // A line sent last leaves nothing after it: no empty line at the end.
  return box.text.endsWith("\n") && box.cursor === box.text.length ? { ...box, text: box.text.slice(0, -1), cursor: box.cursor - 1 } : box;
}

/** `box` holding the text, cursor and pastes of `draft`. */
export function withDraft(box: EditorState, draft: EditorState | undefined): EditorState {
  return draft ? { ...box, text: draft.text, cursor: draft.cursor, pastes: draft.pastes } : box;
}
