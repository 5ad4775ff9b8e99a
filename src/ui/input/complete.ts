// Tab completion at the prompt: a slash command at the start of the input,
// its argument where the command takes one of a known few (`/approve a` ->
// `/approve auto`, `/model` the provider's model ids; never a file name there), or a file path (relative to the working directory, absolute, or under ~/) in the
// word before the cursor, `@path` too. Reads the directory each time (no cache
// to go stale) and never more than MAX_ENTRIES of it.

import { type Dirent, opendirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { lineStart } from "./editor-text";

export interface CompletionContext {
  /** Paths are completed relative to this directory. */
  cwd: string;
  /** Slash command names, without the slash. */
  commands: readonly string[];
  /** The values a command's argument takes, by command name, for the commands that take one of a known few (asked each time: /model's are the current provider's). */
  arguments?: Readonly<Record<string, () => readonly string[]>>;
  home?: string;
}

export interface Completion {
  /** What to insert at the cursor ("" when there is nothing to add). */
  insert: string;
  /** Everything that matched, when more than one thing did, as it would be completed (directories end in "/"). */
  candidates: string[];
}

/** A directory with more entries than this is completed from its first MAX_ENTRIES. */
const MAX_ENTRIES = 5000;

/**
 * What Tab does with `text` and the cursor: undefined when there is no word
 * before the cursor (the caller inserts a tab), else what to insert and what
 * matched (nothing matched: insert "", no candidates).
 */
export function complete(text: string, cursor: number, context: CompletionContext): Completion | undefined {
  const start = Math.max(lineStart(text, cursor), cursor - 4096);
  const argument = /^\/([\w-]+) +(\S*)$/.exec(text.slice(0, cursor));
  const name = argument?.[1]!.toLowerCase() ?? "";
  const values = argument && context.arguments && Object.hasOwn(context.arguments, name) ? context.arguments[name]!() : undefined;
  if (values) {
    const typed = argument![2]!;
    return finish(typed, values.filter((value) => value.startsWith(typed)).sort().map((value) => ({ name: value, complete: `${value} ` })), "");
  }
  const word = /\S*$/.exec(text.slice(start, cursor))![0];
  if (word === "") return undefined;
  const wordStart = cursor - word.length;
  if (wordStart === 0 && /^\/[\w-]*$/.test(word)) {
    const prefix = word.slice(1);
    const names = context.commands.filter((name) => name.startsWith(prefix)).sort();
    if (names.length > 0) return finish(prefix, names.map((name) => ({ name, complete: `${name} ` })), "/");
  }
  // `@src/da`: a file the prompt attaches (agent/attachments.ts), completed as a path.
  return completePath(word.startsWith("@") ? word.slice(1) : word, context);
}

interface Match {
  name: string;
  /** The name as inserted when it is the only match: a directory with "/", a file with " ". */
  complete: string;
}

function completePath(word: string, context: CompletionContext): Completion {
  const slash = word.lastIndexOf("/");
  const dirPart = slash === -1 ? "" : word.slice(0, slash + 1);
  const base = word.slice(slash + 1);
  const home = context.home ?? process.env.HOME ?? homedir();
  const expanded = dirPart === "~/" || dirPart.startsWith("~/") ? join(home, dirPart.slice(2)) : dirPart;
  const dir = expanded === "" ? context.cwd : isAbsolute(expanded) ? expanded : join(context.cwd, expanded);
  const matches: Match[] = [];
  try {
    const handle = opendirSync(dir);
    try {
      let entry: Dirent | null;
      for (let seen = 0; seen < MAX_ENTRIES && (entry = handle.readSync()) !== null; seen++) {
        const name = entry.name;
        if (!name.startsWith(base) || (name.startsWith(".") && !base.startsWith("."))) continue;
        const directory = entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(join(dir, name)));
        matches.push({ name: directory ? `${name}/` : name, complete: directory ? `${name}/` : `${name} ` });
      }
    } finally {
      handle.closeSync();
    }
  } catch {
    return { insert: "", candidates: [] }; // no such directory, or not readable: nothing to offer
  }
  matches.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return finish(base, matches, "");
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** One match: all of it. Several: as far as they agree, and the list. */
function finish(typed: string, matches: Match[], shownPrefix: string): Completion {
  if (matches.length === 0) return { insert: "", candidates: [] };
  if (matches.length === 1) return { insert: matches[0]!.complete.slice(typed.length), candidates: [] };
  let common = matches[0]!.name;
  for (const { name } of matches) {
    let i = 0;
    while (i < common.length && i < name.length && common[i] === name[i]) i++;
    common = common.slice(0, i);
  }
  // Never cut a surrogate pair in half.
  if (/[\ud800-\udbff]$/.test(common)) common = common.slice(0, -1);
  return { insert: common.slice(typed.length), candidates: matches.map((m) => shownPrefix + m.name) };
}
