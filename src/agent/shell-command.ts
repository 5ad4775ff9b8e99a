// What the shell parser (shell-words.ts) gives the approval rules: simple
// commands made of words, each word knowing whether it is exactly the argument
// the program gets and whether it could turn into an option. Apart from the
// parser so that the rules that read commands need not know how they are parsed.

export interface Word {
  /** The word after quote removal; an expansion is kept as written (`$HOME`, `$(pwd)`). */
  text: string;
  /** No expansion of any kind: `text` is exactly the argument the program gets. */
  literal: boolean;
  /**
   * Could the word expand to an argument that starts with "-", or to several
   * arguments? True when an expansion comes first, or when an unquoted
   * `$…`, `$(…)` or backtick could be split into words.
   */
  mayBeOption: boolean;
  /** Offsets in the command: the word is command.slice(start, end). */
  start: number;
  end: number;
}

export interface Redirect {
  /** `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`, `<<<`. */
  op: string;
  target: Word;
}

export interface SimpleCommand {
  /** `NAME=value` words before the program. */
  assignments: Word[];
  /** The program and its arguments. */
  words: Word[];
  redirects: Redirect[];
}

/** How a piece of a word came to be, for Word.literal and Word.mayBeOption. */
export type Piece = { kind: "text"; text: string } | { kind: "expansion"; text: string; splits: boolean; optionLike: boolean };

/** A word from its pieces: literal only when nothing in it expands; an option when it starts, or may start, with "-". */
export function wordOf(pieces: Piece[], start: number, end: number): Word {
  const text = pieces.map((p) => p.text).join("");
  const literal = pieces.every((p) => p.kind === "text");
  let mayBeOption = false;
  if (!literal) {
    const first = pieces.find((p) => p.text !== "");
    if (pieces.some((p) => p.kind === "expansion" && p.splits)) mayBeOption = true;
    else if (first?.kind === "expansion") mayBeOption = first.optionLike;
    else mayBeOption = first?.text.startsWith("-") ?? false;
  }
  return { text, literal, mayBeOption, start, end };
}
