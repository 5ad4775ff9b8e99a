// A Markdown command typed with its arguments, made into the prompt it sends,
// as Claude Code expands its custom slash commands: `$ARGUMENTS` is all that
// followed the name, `$1`… each argument (quotes group words). Each `!`cmd``
// is a command to run before the prompt goes (agent/command-turn.ts runs them
// as bash calls); its output takes its place. The parts are the file's: they
// are found before the arguments go in, so what is typed (or what a script
// passes to `awl -p "/name …"`) never adds one, and an argument put inside a
// part is one word for the shell, never more of the command. `@path` needs
// nothing here: the prompt's `@path`s are attached as a typed prompt's are
// (agent/attachments.ts), never those of a part's output.

import { shellQuote } from "../../tools/shell-quote";

/** `!`cmd``: what Claude Code runs before the prompt is sent. */
const SHELL_PART = /!`([^`]+)`/g;

/** A piece of the prompt: its words, or a `!`cmd`` part whose output takes its place. */
export type Piece = string | { command: string };

export interface Expanded {
  /** The body with the arguments put in, its `!`cmd`` parts still in place: what is shown, and whose `@path`s are attached. */
  prompt: string;
  /** The commands of its `!`cmd`` parts, in order (one per part, repeats included). */
  commands: string[];
  /** The prompt in order, for withOutputs. */
  pieces: Piece[];
}

export function expandCommand(body: string, argument: string): Expanded {
  const args = [...argument.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const put = (text: string, inPart: boolean) =>
    text.replace(/\$ARGUMENTS|\$(\d+)/g, (_whole, n: string | undefined) => {
      if (n !== undefined) return inPart ? shellQuote(args[Number(n) - 1] ?? "") : (args[Number(n) - 1] ?? "");
      return inPart ? args.map(shellQuote).join(" ") : argument;
    });
  const pieces: Piece[] = [];
  let at = 0;
  for (const match of body.matchAll(SHELL_PART)) {
    pieces.push(put(body.slice(at, match.index), false), { command: put(match[1]!, true) });
    at = match.index + match[0].length;
  }
  pieces.push(put(body.slice(at), false));
  // The prompt is trimmed as a whole: its first and last words.
  if (typeof pieces[0] === "string") pieces[0] = pieces[0].trimStart();
  if (typeof pieces.at(-1) === "string") pieces[pieces.length - 1] = (pieces.at(-1) as string).trimEnd();
  const kept = pieces.filter((p) => p !== "");
  return {
    prompt: kept.map((p) => (typeof p === "string" ? p : `!\`${p.command}\``)).join(""),
    commands: kept.flatMap((p) => (typeof p === "string" ? [] : [p.command])),
    pieces: kept,
  };
}

/** The commands of a text's `!`cmd`` parts, in order. */
export function shellParts(text: string): string[] {
  return [...text.matchAll(SHELL_PART)].map((m) => m[1]!);
}

/** What one `!`cmd`` gave: its output, or (`failed`) why it has none that can stand for it. */
export interface ShellOutput {
  content: string;
  failed: boolean;
}

/** The prompt with each `!`cmd`` part replaced, in order, by its output; one that failed or was refused, by a note that says so. */
export function withOutputs(pieces: readonly Piece[], outputs: readonly ShellOutput[]): string {
  let i = 0;
  return pieces
    .map((piece) => {
      if (typeof piece === "string") return piece;
      const output = outputs[i++];
      if (!output) return `!\`${piece.command}\``;
      const text = output.content.replace(/\n+$/, "");
      return output.failed ? `[\`${piece.command}\` did not succeed: ${text}]` : text;
    })
    .join("");
}
