// The turn a Markdown command starts (docs/extensions.md, "Markdown
// commands"), as Claude Code runs its custom slash commands: the arguments
// put in, each `!`cmd`` run first as a bash call of the model's would be
// (Agent.runCommands) and replaced by its output, then the prompt sent. Its
// front matter holds for this one turn: `model` is the model it runs with,
// `allowed-tools` are allow rules (ask mode only: never past read-only or
// the sandbox, never over a deny rule). A `!`cmd`` is a program the command's
// file runs, and allow-lists come from the person's files: a project's
// command runs its `!`cmd`` parts, and its `allowed-tools` count, only once
// the person trusts the project (until then each part is a note in the prompt).
// Afterwards the session's model is back, and nothing stays allowed. The REPL
// runs them (ui/repl.ts), and so does `awl -p "/name args"` (cli/print.ts),
// which never asks: there, what would need a question is refused.

import type { MarkdownCommand } from "../extensions/commands/markdown-commands";
import { expandCommand, withOutputs, type Piece } from "../extensions/commands/expand-command";
import { INTERRUPTED_BY_USER, type ModelRef } from "../session";
import { UsageError, UserError } from "../errors";
import type { Agent, TurnLimits } from "./agent";
import type { Ask } from "./approval";
import type { AgentEvent, TurnResult } from "./events";
import { namedModel } from "./named-model";
import { parseRule, type PermissionRule } from "./permission-rules";

export interface CommandTurn {
  /** The command's name, for what is said about it. */
  name: string;
  /** Its body with the arguments put in; its `!`cmd`` parts still in place. */
  prompt: string;
  commands: string[];
  /** The prompt in pieces, for its `!`cmd`` parts' outputs to take their places. */
  pieces: Piece[];
  /** The model its turn runs with, when it names one. */
  model?: ModelRef;
  /** Its `allowed-tools`, as allow rules for the turn; none when the project's files may not allow. */
  allow: PermissionRule[];
  /** Why its `!`cmd`` parts are not run (a project not trusted): each part's note. */
  notRun?: string;
  /** One line each for the person: an allowed-tools entry that is not a rule, or the project's ignored. */
  notices: string[];
  /** Text sent before the prompt as it is, never read for `!`cmd`` parts: what -p read from standard input. */
  input?: string;
}

/** The command typed with `argument`, ready to run; a UsageError, in one line, when its `model` names none. */
export function prepareCommandTurn(agent: Agent, command: MarkdownCommand, argument: string): CommandTurn {
  const { prompt, commands, pieces } = expandCommand(command.body, argument);
  const turn: CommandTurn = { name: command.name, prompt, commands, pieces, allow: [], notices: [] };
  if (command.model) {
    try {
      turn.model = namedModel(agent.model, command.model);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      throw new UsageError(`/${command.name} names the model "${command.model}", which awl cannot use (${error.message}): nothing was sent`);
    }
  }
  const untrusted = command.scope === "project" && !agent.code.project;
  if (untrusted && commands.length > 0) {
    turn.notRun = "not run: this project is not trusted, and its commands run programs only once you trust it";
    turn.notices.push("This project is not trusted, so the !`command` parts of its Markdown commands are not run: their places in the prompt say so (trust the project when awl asks as it starts, or add --trust to -p, to let them run).");
  }
  if (!command.allowedTools) return turn;
  if (untrusted) {
    // Allow rules count in ask mode alone: in auto and read-only (-p's modes) ignoring them changes nothing, and is not said.
    if (agent.approvals.mode === "ask") turn.notices.push("This project is not trusted, so the allowed-tools of its Markdown commands are ignored: their tools are asked about as usual (trust the project to let them count).");
    return turn;
  }
  for (const text of ruleTexts(command.allowedTools)) {
    const rule = parseRule(text, "allow", command.file);
    if ("problem" in rule) turn.notices.push(`/${command.name}: allowed-tools ${rule.problem}; it is ignored`);
    else turn.allow.push(rule);
  }
  return turn;
}

/** `Bash(git add:*), Read` as its rules' texts: split at the commas outside parentheses. */
function ruleTexts(list: string): string[] {
  const texts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of list) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      texts.push(current);
      current = "";
    } else current += ch;
  }
  return [...texts, current].map((t) => t.trim()).filter(Boolean);
}

/**
 * Runs the command's turn: its `!`cmd`` parts, then the prompt with their
 * output, under its model and allowed tools. A model that cannot be used (no
 * key) throws a UserError before anything runs; stopped while its commands
 * run, nothing is written (promptBlocked: the command goes back to the input box).
 */
export async function runCommandTurn(agent: Agent, turn: CommandTurn, signal: AbortSignal, onEvent: (event: AgentEvent) => void, ask?: Ask, limits?: TurnLimits): Promise<TurnResult> {
  const sessionModel = agent.model;
  if (turn.model) agent.setModel(turn.model);
  const lift = agent.approvals.allowForTurn(turn.allow);
  try {
    const results = turn.notRun ? turn.commands.map(() => ({ content: turn.notRun!, isError: true })) : await agent.runCommands(turn.commands, signal, onEvent, ask);
    if (signal.aborted) return { stopReason: "error", aborted: true, errorMessage: INTERRUPTED_BY_USER, finalText: "", usage: { input: 0, output: 0 }, context: agent.meter(), promptBlocked: true };
    // A command that succeeded stands for its output alone, as in Claude Code: the bash tool's closing "exit code: 0" is the model's, not the prompt's.
    const prompt = withOutputs(turn.pieces, results.map((r) => (r.isError ? { content: r.content, failed: true } : { content: r.content.replace(/\nexit code: 0$/, ""), failed: false })));
    // Its `@path`s are the file's and the typed arguments': never those of a part's output or of what -p read from standard input.
    const typed = turn.pieces.filter((piece) => typeof piece === "string").join("\n");
    return await agent.runTurn({ text: turn.input === undefined ? prompt : afterInput(turn.input, prompt), typed }, signal, onEvent, ask, limits);
  } finally {
    lift();
    if (turn.model) agent.setModel(sessionModel);
  }
}

/** A prompt after the text piped to -p, a blank line between them. */
export function afterInput(input: string, prompt: string): string {
  return `${input}${input.endsWith("\n") ? "" : "\n"}\n${prompt}`;
}
