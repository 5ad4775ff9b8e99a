// A small parser for the part of bash's grammar that approvals need: it splits
// a command into the simple commands that would run (every part of a list or
// pipeline, and every command inside `$(…)`, backticks, `<(…)` and `>(…)`),
// each with its words after quote removal, its leading assignments and its
// redirections. It never runs or expands anything. Whatever it does not
// understand (a here-document, `$((…))`, `${x:-…}`, a `case`, a function
// definition, an unclosed quote) is an error, and the caller treats the command
// as one that must be asked about. See docs/architecture.md ("Approvals").

import { wordOf, type Piece, type Redirect, type SimpleCommand, type Word } from "./shell-command";

export class ShellParseError extends Error {}

/** Every simple command in `command`, nested ones included, in the order they appear; throws ShellParseError. */
export function parseShell(command: string): SimpleCommand[] {
  return parseCommandLine(command).commands;
}

/** parseShell's commands, and whether any of them is put in the background (`&`), where it may outlive the command. */
export function parseCommandLine(command: string): { commands: SimpleCommand[]; background: boolean } {
  const parser = new Parser(command);
  parser.sequence(undefined);
  return { commands: parser.commands, background: parser.background };
}

const BLANK = new Set([" ", "\t"]);
/** Characters that end an unquoted word. */
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const SPECIAL_PARAMETER = new Set(["@", "*", "#", "?", "$", "!", "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
const REDIRECT_OPS = ["&>>", "<<<", "<<-", "&>", ">>", ">|", "<>", "<&", ">&", "<<", "<", ">"];


class Parser {
  readonly commands: SimpleCommand[] = [];
  /** A `&` list operator was seen. */
  background = false;
  #i = 0;
  /** The end of what is being parsed: the whole command, or the inside of a backtick substitution. */
  #limit: number;

  constructor(private readonly s: string) {
    this.#limit = s.length;
    if (s.includes("\0")) this.#fail("a NUL byte");
  }

  #fail(what: string): never {
    throw new ShellParseError(what);
  }

  #peek(offset = 0): string | undefined {
    const at = this.#i + offset;
    return at < this.#limit ? this.s[at] : undefined;
  }

  #startsWith(text: string): boolean {
    return this.#i + text.length <= this.#limit && this.s.startsWith(text, this.#i);
  }

  /** Spaces, tabs and line continuations. */
  #blanks(): void {
    for (;;) {
      const c = this.#peek();
      if (c !== undefined && BLANK.has(c)) this.#i++;
      else if (c === "\\" && this.#peek(1) === "\n") this.#i += 2;
      else return;
    }
  }

  #comment(): void {
    while (this.#peek() !== undefined && this.#peek() !== "\n") this.#i++;
  }

  /**
   * A list: pipelines joined by `;`, `&`, `&&`, `||`, `|`, `|&` and newlines,
   * up to `close` (`)` of a `$(`, `(` or `<(`) or the end.
   */
  sequence(close: ")" | undefined): void {
    // "start": a command may come or the list may end; "operand": a command must come; "after": an operator or the end must come.
    let state: "start" | "operand" | "after" = "start";
    for (;;) {
      this.#blanks();
      const c = this.#peek();
      if (c === undefined) {
        if (close) this.#fail(`an unclosed ${close === ")" ? "(" : close}`);
        if (state === "operand") this.#fail("a command missing after an operator");
        return;
      }
      if (c === ")") {
        if (close !== ")") this.#fail("an unmatched )");
        if (state === "operand") this.#fail("a command missing after an operator");
        this.#i++;
        return;
      }
      if (c === "#") {
        this.#comment();
        continue;
      }
      if (c === "\n") {
        this.#i++;
        if (state === "after") state = "start";
        continue;
      }
      const operator = this.#operator();
      if (operator) {
        if (state !== "after") this.#fail(`an unexpected ${operator}`);
        if (operator === ";;" || operator === ";&" || operator === ";;&") this.#fail("a case clause");
        if (operator === "&") this.background = true;
        state = operator === ";" || operator === "&" ? "start" : "operand";
        continue;
      }
      if (state === "after") this.#fail("an unexpected word");
      if (c === "(") {
        this.#i++;
        this.sequence(")");
        this.#trailingRedirects();
      } else {
        this.#simple();
      }
      state = "after";
    }
  }

  /** A list operator at the cursor (consumed), or undefined. `&>` is a redirection, not `&`. */
  #operator(): string | undefined {
    for (const op of [";;&", ";;", ";&", "&&", "||", "|&", ";", "|", "&"]) {
      if (!this.#startsWith(op)) continue;
      if (op === "&" && this.#peek(1) === ">") return undefined;
      this.#i += op.length;
      return op;
    }
    return undefined;
  }

  /** Redirections after a subshell: `( … ) > out`. They belong to no program; they are kept as a command of their own. */
  #trailingRedirects(): void {
    const redirects: Redirect[] = [];
    for (;;) {
      this.#blanks();
      const fd = /^[0-9]+(?=[<>])/.exec(this.s.slice(this.#i, this.#limit))?.[0];
      const from = this.#i;
      if (fd) this.#i += fd.length;
      const redirect = this.#redirect(undefined);
      if (!redirect) {
        this.#i = from;
        break;
      }
      redirects.push(redirect);
    }
    if (redirects.length) this.commands.push({ assignments: [], words: [], redirects });
  }

  /** One simple command: assignments, words and redirections up to an operator, a newline, `)` or the end. */
  #simple(): void {
    const command: SimpleCommand = { assignments: [], words: [], redirects: [] };
    this.commands.push(command);
    for (;;) {
      this.#blanks();
      const c = this.#peek();
      if (c === undefined || c === "\n" || c === ";" || c === "|" || c === ")") break;
      if (c === "&" && this.#peek(1) !== ">") break;
      if (c === "#") {
        this.#comment();
        break;
      }
      if (c === "(") this.#fail("a ( inside a command (a function definition or an array)");
      const redirect = this.#redirect(undefined);
      if (redirect) {
        command.redirects.push(redirect);
        continue;
      }
      const word = this.#word();
      // A word of digits right before < or > is the file descriptor of a redirection (2>/dev/null).
      if (/^[0-9]+$/.test(word.text) && word.literal && this.s.slice(word.start, word.end) === word.text) {
        const fd = this.#redirect(word);
        if (fd) {
          command.redirects.push(fd);
          continue;
        }
      }
      if (command.words.length === 0 && ASSIGNMENT.test(this.s.slice(word.start, word.end))) command.assignments.push(word);
      else command.words.push(word);
    }
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0) this.#fail("an empty command");
  }

  /** A redirection at the cursor (consumed with its target), or undefined. `<(` and `>(` are words, not redirections. */
  #redirect(fd: Word | undefined): Redirect | undefined {
    if (this.#startsWith("<(") || this.#startsWith(">(")) return undefined;
    const op = REDIRECT_OPS.find((o) => this.#startsWith(o));
    if (!op) return undefined;
    if (fd && op.startsWith("&")) return undefined;
    if (op === "<<" || op === "<<-") this.#fail("a here-document");
    this.#i += op.length;
    this.#blanks();
    const c = this.#peek();
    if (c === undefined || (META.has(c) && !this.#startsWith("<(") && !this.#startsWith(">("))) this.#fail(`a ${op} without a target`);
    return { op, target: this.#word() };
  }

  /** One word, with its quotes, escapes and expansions (a command substitution's commands are collected). */
  #word(): Word {
    const start = this.#i;
    const pieces: Piece[] = [];
    const text = (t: string) => pieces.push({ kind: "text", text: t });
    const expansion = (t: string, splits: boolean, optionLike = true) => pieces.push({ kind: "expansion", text: t, splits, optionLike });
    for (;;) {
      const c = this.#peek();
      if (c === undefined) break;
      if (c === "<" || c === ">") {
        if (this.#peek(1) !== "(") break;
        const from = this.#i;
        this.#i += 2;
        this.sequence(")");
        expansion(this.s.slice(from, this.#i), false, false); // a /dev/fd/N path
        continue;
      }
      if (META.has(c)) break;
      if (c === "\\") {
        const next = this.#peek(1);
        if (next === undefined) this.#fail("a trailing backslash");
        this.#i += 2;
        if (next !== "\n") text(next);
        continue;
      }
      if (c === "'") {
        const close = this.s.indexOf("'", this.#i + 1);
        if (close === -1 || close >= this.#limit) this.#fail("an unclosed '");
        text(this.s.slice(this.#i + 1, close));
        this.#i = close + 1;
        continue;
      }
      if (c === '"') {
        this.#doubleQuoted(pieces);
        continue;
      }
      if (c === "$") {
        this.#dollar(pieces, false);
        continue;
      }
      if (c === "`") {
        this.#backticks();
        expansion(this.s.slice(start, this.#i), true);
        continue;
      }
      this.#i++;
      // Globs and brace expansion make new words that start like the pattern; tilde becomes a path.
      if (c === "*" || c === "?" || c === "[" || c === "{") expansion(c, false);
      else if (c === "~" && pieces.length === 0) expansion(c, false, false);
      else text(c);
    }
    if (this.#i === start) this.#fail("a missing word");
    return wordOf(pieces, start, this.#i);
  }

  /** `"…"`: escapes, `$…` and backticks are live inside; nothing in it is split into words. */
  #doubleQuoted(pieces: Piece[]): void {
    this.#i++;
    let literal = "";
    const flush = () => {
      pieces.push({ kind: "text", text: literal });
      literal = "";
    };
    for (;;) {
      const c = this.#peek();
      if (c === undefined) this.#fail('an unclosed "');
      if (c === '"') {
        this.#i++;
        flush();
        return;
      }
      if (c === "\\") {
        const next = this.#peek(1);
        if (next === undefined) this.#fail('an unclosed "');
        this.#i += 2;
        if (next === "\n") continue;
        literal += "$`\"\\".includes(next) ? next : `\\${next}`;
        continue;
      }
      if (c === "$") {
        flush();
        this.#dollar(pieces, true);
        continue;
      }
      if (c === "`") {
        flush();
        const from = this.#i;
        this.#backticks();
        pieces.push({ kind: "expansion", text: this.s.slice(from, this.#i), splits: false, optionLike: true });
        continue;
      }
      literal += c;
      this.#i++;
    }
  }

  /** `$NAME`, `${NAME}`, `$(…)`, `$'…'`, or a plain `$`. Anything more elaborate is refused. */
  #dollar(pieces: Piece[], quoted: boolean): void {
    const from = this.#i;
    const next = this.#peek(1);
    const push = (splits: boolean): void => {
      pieces.push({ kind: "expansion", text: this.s.slice(from, this.#i), splits, optionLike: true });
    };
    if (next === "(") {
      if (this.#peek(2) === "(") this.#fail("an arithmetic expansion $((…))");
      this.#i += 2;
      this.sequence(")");
      return push(!quoted);
    }
    if (next === "{") {
      const close = this.s.indexOf("}", this.#i);
      const inner = close === -1 || close >= this.#limit ? undefined : this.s.slice(this.#i + 2, close);
      const name = inner?.startsWith("#") ? inner.slice(1) : inner;
      if (name === undefined || !(NAME.test(name) || /^[0-9]+$/.test(name) || (name.length === 1 && SPECIAL_PARAMETER.has(name)))) {
        this.#fail("a parameter expansion other than ${NAME}");
      }
      this.#i = close + 1;
      return push(!quoted);
    }
    if (next === "'" && !quoted) {
      // ANSI-C quoting: its escapes are not decoded here, so its value is unknown, but it is never split.
      let j = this.#i + 2;
      for (; j < this.#limit && this.s[j] !== "'"; j++) if (this.s[j] === "\\") j++;
      if (j >= this.#limit) this.#fail("an unclosed $'");
      this.#i = j + 1;
      return push(false);
    }
    if (next === '"' && !quoted) this.#fail('a $"…" string');
    if (next === "[") this.#fail("an arithmetic expansion $[…]");
    if (next !== undefined && (SPECIAL_PARAMETER.has(next) || /[A-Za-z_]/.test(next))) {
      this.#i += 2;
      if (/[A-Za-z_]/.test(next)) while (/[A-Za-z0-9_]/.test(this.#peek() ?? "")) this.#i++;
      return push(!quoted);
    }
    // A lone $ is just a dollar sign.
    this.#i++;
    pieces.push({ kind: "text", text: "$" });
  }

  /**
   * `` `…` ``: ends at the next backtick, as bash reads it. A backslash inside
   * (bash's second round of unescaping) is refused; without one, the inside is
   * parsed in place as a list of its own.
   */
  #backticks(): void {
    const open = this.#i;
    const close = this.s.indexOf("`", open + 1);
    if (close === -1 || close >= this.#limit) this.#fail("an unclosed `");
    if (this.s.slice(open + 1, close).includes("\\")) this.#fail("a backslash inside backticks");
    const limit = this.#limit;
    this.#limit = close;
    this.#i = open + 1;
    this.sequence(undefined);
    this.#limit = limit;
    this.#i = close + 1;
  }
}
