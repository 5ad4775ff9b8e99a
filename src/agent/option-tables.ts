// How git and rg read their own arguments, as far as the read-only check needs
// it: which options take a value (and so consume the next word, whatever it
// is, `--` included: `rg -e -- --pre=PROG` searches for "--" and then runs
// PROG), and which options are refused because they write a file, run a
// program, or look into what the git guard cannot switch off.
//
// The tables follow the programs' own parsers (git's parse-options and
// revision.c, rg's --help); test/agent/read-only.test.ts checks them against
// the installed programs. Since another version may differ, a word the table
// takes as a value or an operand but which spells a refused option still makes
// the command ask: the table only ever makes the check stricter.

import type { Word } from "./shell-command";

export interface OptionTable {
  /** Long options that take a value, given as `--name value` or `--name=value`. */
  longValue: readonly string[];
  /** Short options that take a value, given as `-x value` or `-xvalue` (also last in a cluster, `-ix value`). */
  shortValue: string;
  /** Long options refused. The program takes any unambiguous prefix of one (git), so a prefix of a refused one is refused too. */
  refusedLong: readonly string[];
  /** Short options refused, alone or in a cluster. */
  refusedShort: string;
  /** Options of their own whose name is the prefix of a refused one (`--text`, not `--textconv`): an exact name beats an abbreviation. */
  exact?: readonly string[];
}

/** git diff, log and show: diff options (parse-options), revision options (revision.c) and log's own. */
const GIT_DIFF_VALUES = [
  "stat-width", "stat-name-width", "stat-graph-width", "stat-count", "ws-error-highlight", "src-prefix", "dst-prefix", "line-prefix",
  "inter-hunk-context", "output-indicator-new", "output-indicator-old", "output-indicator-context", "ignore-matching-lines",
  "diff-algorithm", "anchored", "word-diff-regex", "color-moved-ws", "rotate-to", "skip-to", "find-object", "diff-filter", "output",
];
const GIT_REVISION_VALUES = [
  "max-count", "skip", "max-age", "since", "after", "min-age", "before", "until", "since-as-filter", "date", "author", "committer",
  "grep-reflog", "grep", "encoding", "default", "diff-merges", "decorate-refs", "decorate-refs-exclude",
];
/**
 * Write a file (--output), run a configured program (ext-diff, textconv, the
 * pager, signature programs), re-merge (merge drivers), or look into
 * submodules, whose own configuration the guard's `-c` does not reach.
 */
const GIT_REFUSED = [
  "output", "ext-diff", "textconv", "show-signature", "open-files-in-pager", "exec-path", "remerge-diff", "diff-merges",
  "submodule", "ignore-submodules", "recurse-submodules",
];

const GIT_LOG: OptionTable = {
  longValue: [...GIT_DIFF_VALUES, ...GIT_REVISION_VALUES],
  shortValue: "SGOlInL",
  refusedLong: GIT_REFUSED,
  refusedShort: "c",
  exact: ["text"],
};

export const GIT_TABLES: Record<string, OptionTable> = {
  diff: { ...GIT_LOG, longValue: GIT_DIFF_VALUES, shortValue: "SGOlI" },
  log: GIT_LOG,
  show: GIT_LOG,
  // status takes no option with a separate value; -v/--verbose shows a diff, through textconv.
  status: { longValue: [], shortValue: "", refusedLong: [...GIT_REFUSED, "verbose"], refusedShort: "cv", exact: [] },
};

/** rg 13 and 14. --pre and --hostname-bin run a program; -z/--search-zip runs decompressors. */
export const RG_TABLE: OptionTable = {
  longValue: [
    "after-context", "before-context", "color", "colors", "context", "context-separator", "dfa-size-limit", "encoding", "engine",
    "field-context-separator", "field-match-separator", "file", "glob", "iglob", "ignore-file", "max-columns", "max-count", "max-depth",
    "max-filesize", "path-separator", "pre", "pre-glob", "regex-size-limit", "regexp", "replace", "sort", "sortr", "threads", "type",
    "type-add", "type-clear", "type-not", "hostname-bin", "hyperlink-format", "generate",
  ],
  shortValue: "ABCEfgMmerjtTd",
  refusedLong: ["pre", "hostname-bin", "search-zip"],
  refusedShort: "z",
};

/** Does the word, read as an option, name a refused one? */
function spellsRefused(text: string, table: OptionTable): boolean {
  if (text.startsWith("--")) {
    const name = text.slice(2).split("=")[0]!;
    return name !== "" && !table.exact?.includes(name) && table.refusedLong.some((r) => r.startsWith(name));
  }
  if (!/^-[^-]/.test(text)) return false;
  for (const ch of text.slice(1)) {
    if (table.refusedShort.includes(ch)) return true;
    if (table.shortValue.includes(ch)) return false; // the rest is its value
  }
  return false;
}

/**
 * Are these arguments free of refused options, read as the program reads them?
 * False also when an argument could expand to an option (`$X`, `*`) where the
 * program would read one.
 */
export function argumentsAllowed(args: readonly Word[], table: OptionTable): boolean {
  let value = false; // the next word is the value of the option before it
  let operands = false; // after `--` (or git's --end-of-options): the rest are not options
  for (const w of args) {
    if (!w.literal) {
      if (w.mayBeOption && !value && !operands) return false;
      value = false;
      continue;
    }
    const text = w.text;
    // Taken as a value or an operand, it is still refused if it spells a refused option (see above).
    if (spellsRefused(text, table)) return false;
    if (value) {
      value = false;
      continue;
    }
    if (operands || text === "-" || !text.startsWith("-")) continue;
    if (text === "--" || text === "--end-of-options") {
      operands = true;
      continue;
    }
    if (text.startsWith("--")) {
      value = !text.includes("=") && table.longValue.includes(text.slice(2));
      continue;
    }
    const at = [...text.slice(1)].findIndex((ch) => table.shortValue.includes(ch));
    value = at !== -1 && at === text.length - 2; // the value-taking letter ends the word: its value is the next one
  }
  return true;
}
