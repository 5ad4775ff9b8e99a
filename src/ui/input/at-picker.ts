// The `@` picker: typing `@` at the start of a word lists the project's files
// under the input (project-files.ts, drawn again as the names arrive),
// filtered as the person types by fuzzy match (fuzzy.ts); ↑ ↓ choose, Tab or
// Enter puts the chosen path in place of what was typed after `@`, Esc closes
// the list (until another `@`). What is sent is the prompt's text: the
// attachment happens on send (agent/attachments.ts).

import { replaceRange, type EditorState } from "./editor";
import { fuzzyPick } from "./fuzzy";
import type { FileList } from "./project-files";
import type { Key } from "./keys";

/** Rows of files shown at most. */
export const PICKER_ROWS = 8;

export class AtPicker {
  #files: FileList | undefined;
  /** The text typed after `@`, when the list is open. */
  #query: string | undefined;
  #selected = 0;
  /** Where the `@` word Esc closed the list on starts: not opened again until another one. */
  #closedAt: number | undefined;

  /** `load` starts the listing; it calls `changed` as names arrive, for the list to be drawn again. */
  constructor(private readonly load: (changed: () => void) => FileList, private readonly changed: () => void) {}

  /** Opens, filters or closes the list after the text changed. */
  update(state: EditorState): void {
    const before = state.search ? undefined : /(?:^|[\s([])@([^\s@]*)$/.exec(state.text.slice(0, state.cursor));
    const start = before ? state.cursor - before[1]!.length : undefined;
    if (start === undefined) this.#closedAt = undefined;
    const query = start === undefined || start === this.#closedAt ? undefined : before![1]!;
    if (query !== this.#query) this.#selected = 0;
    this.#query = query;
    if (query !== undefined) this.#files ??= this.load(this.changed);
  }

  /** The last scoring, kept while neither the query nor the list has changed: each key draws and is handled, and a list can hold 100,000 paths. */
  #scored: { query: string; files: readonly string[]; matches: string[] } | undefined;

  #matches(): string[] {
    if (!this.#files || this.#query === undefined) return [];
    const { files } = this.#files;
    if (this.#scored?.query !== this.#query || this.#scored.files !== files) this.#scored = { query: this.#query, files, matches: fuzzyPick(files, this.#query, PICKER_ROWS) };
    return this.#scored.matches;
  }

  /** The rows under the input while the list is open (the chosen one marked), else none. */
  rows(): string[] {
    if (this.#query === undefined || !this.#files) return [];
    if (this.#files.stopped) return [`@: ${this.#files.stopped}, so no list; Tab completes a path`];
    const matches = this.#matches();
    if (matches.length === 0) return [this.#files.done ? `@${this.#query}: no file matches` : "@: listing the project's files…"];
    this.#selected = Math.min(this.#selected, matches.length - 1);
    return matches.map((path, i) => `${i === this.#selected ? "›" : " "} ${path}`);
  }

  /** A key the open list takes: the state after it, or undefined for the editor to have it. */
  key(key: Key, state: EditorState): EditorState | undefined {
    if (this.#query === undefined || key.type !== "key" || key.ctrl || key.alt) return undefined;
    if (key.name === "escape") {
      this.#closedAt = state.cursor - this.#query.length;
      this.#query = undefined;
      return state;
    }
    const matches = this.#matches();
    if (matches.length === 0) return undefined;
    if (key.name === "up" || key.name === "down") {
      this.#selected = (this.#selected + (key.name === "up" ? -1 : 1) + matches.length) % matches.length;
      return state;
    }
    if ((key.name === "tab" && !key.shift) || key.name === "enter") {
      const chosen = matches[Math.min(this.#selected, matches.length - 1)]!;
      const next = replaceRange(state, state.cursor - this.#query.length, state.cursor, `${chosen} `);
      this.#query = undefined;
      return next;
    }
    return undefined;
  }
}
