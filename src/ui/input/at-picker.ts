// The `@` picker: typing `@` at the start of a word lists the project's files
// under the input (project-files.ts), filtered as the person types by fuzzy
// match (fuzzy.ts); ↑ ↓ choose, Tab or Enter puts the chosen path in place of
// what was typed after `@`, Esc closes the list (until another `@`). What is
// sent is the prompt's text: the attachment happens on send
// (agent/attachments.ts).

import { replaceRange, type EditorState } from "./editor";
import { fuzzyPick } from "./fuzzy";
import type { ProjectFiles } from "./project-files";
import type { Key } from "./keys";

/** Rows of files shown at most. */
export const PICKER_ROWS = 8;

export class AtPicker {
  #files: ProjectFiles | undefined;
  /** Where the `@` word starts (the character after `@`), when the list is open. */
  #start: number | undefined;
  #query = "";
  #matches: string[] = [];
  #selected = 0;
  /** The `@` word Esc closed the list on: not opened again until another one. */
  #closedAt: number | undefined;

  constructor(private readonly load: () => ProjectFiles) {}

  /** Opens, filters or closes the list after the text changed. */
  update(state: EditorState): void {
    const before = state.search ? undefined : /(?:^|[\s([])@([^\s@]*)$/.exec(state.text.slice(0, state.cursor));
    const start = before ? state.cursor - before[1]!.length : undefined;
    if (start === undefined || start === this.#closedAt) {
      this.#start = undefined;
      if (start === undefined) this.#closedAt = undefined;
      return;
    }
    const query = before![1]!;
    if (start === this.#start && query === this.#query) return;
    this.#files ??= this.load();
    this.#matches = "files" in this.#files ? fuzzyPick(this.#files.files, query, PICKER_ROWS) : [];
    if (start !== this.#start || query !== this.#query) this.#selected = 0;
    this.#start = start;
    this.#query = query;
  }

  /** The rows under the input while the list is open (the chosen one marked), else none. */
  rows(): string[] {
    if (this.#start === undefined) return [];
    if (this.#files && "stopped" in this.#files) return [`@: ${this.#files.stopped}, so no list; Tab completes a path`];
    if (this.#matches.length === 0) return [`@${this.#query}: no file matches`];
    return this.#matches.map((path, i) => `${i === this.#selected ? "›" : " "} ${path}`);
  }

  /** A key the open list takes: the state after it, or undefined for the editor to have it. */
  key(key: Key, state: EditorState): EditorState | undefined {
    if (this.#start === undefined || key.type !== "key" || key.ctrl || key.alt) return undefined;
    if (key.name === "escape") {
      this.#closedAt = this.#start;
      this.#start = undefined;
      return state;
    }
    if (this.#matches.length === 0) return undefined;
    if (key.name === "up" || key.name === "down") {
      this.#selected = (this.#selected + (key.name === "up" ? -1 : 1) + this.#matches.length) % this.#matches.length;
      return state;
    }
    if ((key.name === "tab" && !key.shift) || key.name === "enter") {
      const chosen = this.#matches[this.#selected]!;
      this.#start = undefined;
      return replaceRange(state, state.cursor - this.#query.length, state.cursor, `${chosen} `);
    }
    return undefined;
  }
}
