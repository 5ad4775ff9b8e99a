// The REPL's slash commands. Each returns what to print, "quit", or what the
// REPL's caller must do (compact, open another session). A line is a command
// only when its first word is one: a line that starts with a path is a
// prompt (parseCommand).

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Agent } from "../agent/agent";
import type { Catalogues } from "../providers/catalogue";
import { UserError } from "../errors";
import type { Colors } from "./render/colors";
import { contextFilesInPrompt } from "../agent/context-prompt";
import { APPROVAL_MODES, describeMode, isApprovalMode } from "../agent/approval-mode";
import { replMessage } from "./advice";
import { compactNumber, meterText, oneLine } from "./render/format";
import { contextFilesLine } from "./session/instructions";
import { safeText } from "./render/safe-text";
import { messagesInFile } from "./session/message-count";
import { shortSessionId } from "./session/session-id";
import { mcpCommand } from "./mcp-status";
import { effortCommand, effortText } from "./effort-command";
import { EFFORTS } from "../providers/thinking-forms";
import { limitsText } from "./model-list";
import { wrapText } from "./render/wrap";
import { cutToColumns } from "../session/log";
import { atTerminal, modelCommand } from "./model-command";
import { exportText, JSONL_WARNING, writeNewFile, type ExportFormat } from "./session/export";
import { labelLeaf } from "./session/go-back";
import { permissionsText } from "./permissions-command";
import { initPrompt } from "./init-command";
import type { PickedSetting } from "./setting-picker";
import { costText, sessionCost } from "../agent/session-cost";

/**
 * What to print, "quit", a compaction for the REPL to run (it streams and can
 * be interrupted), the extensions' report (the REPL holds them), or another session to open (the REPL ends, and its caller
 * closes this session and opens that one: cli/chat.ts).
 */
export type CommandResult =
  | { output: string }
  | { compact: string }
  | { open: "new" }
  | { open: "resume"; id?: string }
  | { open: "fork" }
  | { tree: string }
  | { rewind: true }
  | { extensions: true }
  /** /model or /effort with no argument at a terminal: the REPL opens the picker (setting-picker.ts). */
  | { pick: PickedSetting }
  /** A prompt to send as if typed (/init). */
  | { prompt: string }
  | "quit";

/** The commands /help lists: how each is typed, and what it does. */
const COMMANDS: readonly [string, string][] = [
  ["/model [provider/]model", "switch model from the next prompt on (no argument: the provider's models, newest first)"],
  ["/effort [level]", "how hard the model thinks from the next prompt on: off, low, medium, high, xhigh, max"],
  ["/session", "this session's id, file, messages, tokens, cache reads and how full the context is"],
  ["/rename <title>", "name this session (shown by awl sessions and the picker; --resume <part of it> finds it)"],
  ["/export [--html|--jsonl] [file]", "write this session to a file (Markdown by default; keys and home paths redacted)"],
  ["/new", "start a new session here (this one is saved: /resume returns to it)"],
  ["/resume [id]", "pick a session of this directory to continue, most recent first (or the one a whole id, an id prefix or words of its title name)"],
  ["/compact [what to keep]", "summarize every turn before the latest one, so the context has room again"],
  ["/rewind", "go back to before one of your prompts, files too, or undo a rewind (Esc Esc on an empty prompt too); the prompt comes back to edit"],
  ["/tree [prompts|all|labelled]", "the session's paths as a tree: pick any entry to go on from there"],
  ["/label [text]", "name where you are, for /tree (no text: remove the name)"],
  ["/fork", "continue in a copy of this session (this one stays as it is)"],
  ["/approve [ask|auto|read-only]", "when tools may act (no argument: the mode in force and what is always allowed)"],
  ["/extensions", "the extensions and hooks that run here, what each registered, what failed, and whether this project is trusted"],
  ["/mcp [[login|logout] server]", "the MCP servers, each one's state and tools; a name connects that one again, login signs in to it in the browser, logout forgets its sign-in"],
  ["/init", "ask the model to write AGENTS.md from this repository (an existing one is improved, never replaced); you approve the write"],
  ["/permissions", "the allow and deny rules in force and where each came from (Shift+Tab cycles the approval mode)"],
  ["/help", "this help"],
  ["/quit", "leave (Ctrl+D on an empty prompt, or Ctrl+C twice, does the same)"],
];
/** Each description starts in the same column, two spaces after the longest command. */
const USAGE_WIDTH = Math.max(...COMMANDS.map(([usage]) => usage.length)) + 2;

const KEYS = [
  "Enter sends · Alt+Enter, Ctrl+J or a trailing \\ adds a newline · Tab completes commands, their arguments and paths",
  "↑/↓ history (this directory's prompts, every session) · Ctrl+R searches it (Enter sends, Esc goes back)",
  "Esc or Ctrl+C interrupts a running turn; what you typed meanwhile comes back, unsent",
  "Ctrl+C clears the line; on an empty one, press it twice to quit · Ctrl+D on an empty line quits",
  "Ctrl+O shows the latest turn's thinking and tool output in full · a long paste shows as [pasted N lines], sent in full",
  "@ picks a file to attach · Ctrl+G edits the prompt in $VISUAL or $EDITOR · Shift+Tab cycles the approval mode",
];

/** How wide the text after `first` may be in `hanging`. */
const hangingWidth = (first: string, columns: number) => Math.max(10, columns - 1 - first.length);

/** `text` wrapped by words to `columns`, its first row after `first`, the others indented to line up under it. */
function hanging(first: string, text: string, columns: number): string {
  const indent = " ".repeat(first.length);
  const rows = wrapText(text, hangingWidth(first, columns)).replace(/\n$/, "").split("\n");
  return rows.map((row, i) => `${i === 0 ? first : indent}${row}`).join("\n");
}

/** A path in rows of at most `width` columns, broken after a `/` (a path has no spaces to break at); a name longer than a row alone is cut. */
function pathRows(path: string, width: number): string {
  const rows: string[] = [];
  let row = "";
  for (const part of path.split(/(?<=\/)/)) {
    if (row && Bun.stringWidth(row + part) > width) {
      rows.push(row);
      row = "";
    }
    for (const char of part) {
      if (Bun.stringWidth(row + char) > width) {
        rows.push(row);
        row = "";
      }
      row += char;
    }
  }
  return [...rows, row].join("\n");
}

/** /help, laid out for a terminal `columns` wide: descriptions in one column, every line wrapped by words. */
/** `added`: the rows of the commands the person and the project added (Markdown files, extensions). */
export function helpText(columns = 100, added: readonly [string, string][] = []): string {
  // Too narrow for a column of descriptions: each goes under its command.
  const rows = (commands: readonly [string, string][]) =>
    commands.map(([usage, what]) => (columns - 2 - USAGE_WIDTH >= 24 && usage.length < USAGE_WIDTH ? hanging(`  ${usage.padEnd(USAGE_WIDTH)}`, what, columns) : `  ${usage}\n${hanging("      ", what, columns)}`));
  return [
    "Commands:",
    ...rows(COMMANDS),
    ...(added.length > 0 ? ["Added commands (Markdown files and extensions):", ...rows(added)] : []),
    hanging("", "A line that starts with a path (/usr/bin/ls is slow?) is a prompt; so is any line that starts with a space.", columns),
    "Keys:",
    ...KEYS.map((line) => hanging("  ", line, columns)),
  ].join("\n");
}

/** The slash commands, as /help lists them (Tab completes these). */
export function commandNames(): string[] {
  return COMMANDS.map(([usage]) => /^\/([a-z][\w-]*)/.exec(usage)![1]!);
}

/** What Tab offers after a command's name: the values of the arguments that take one of a known few (`models`: the current provider's, asked each time). */
export function commandArguments(models: () => readonly string[]): Record<string, () => readonly string[]> {
  return { approve: () => APPROVAL_MODES, effort: () => EFFORTS, model: models };
}

/** Names that run a command without being listed. */
export const ALIASES = ["exit"];

/** A slash command as typed: its name (lower case) and what follows it. */
export interface Command {
  name: string;
  argument: string;
}

/**
 * The command a line holds, or undefined when the line is a prompt. A
 * command is a line that begins with "/" and a word (no space before it). The
 * word is a path, so the line a prompt, when it holds another slash
 * ("/usr/bin/ls is slow?") or names a file or folder that exists ("/tmp is
 * full?"); unless it is a command's name: "/new" is the command even where a
 * folder /new exists. Any other word is an unknown command, refused rather
 * than sent (a typo of a command would cost a request). A line that starts
 * with a space is always a prompt.
 */
export function parseCommand(line: string, exists: (path: string) => boolean = existsSync, added: readonly string[] = []): Command | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(line.trimEnd());
  if (!match) return undefined;
  const word = match[1]!;
  const name = word.toLowerCase();
  if (!commandNames().includes(name) && !added.includes(name) && !ALIASES.includes(name) && (word.includes("/") || exists(`/${word}`))) return undefined;
  return { name, argument: (match[2] ?? "").trim() };
}

/** `added`: the added commands' rows for /help. */
export function runCommand(command: Command, agent: Agent, c: Colors, catalogues: Catalogues, columns?: number, added: readonly [string, string][] = []): CommandResult {
  const { name, argument } = command;
  switch (name) {
    case "quit":
    case "exit":
      return "quit";
    case "help":
      return { output: helpText(columns, added) };
    case "model":
      if (!argument && atTerminal()) return { pick: "model" };
      return { output: modelCommand(agent, argument, c, catalogues) };
    case "session":
      return { output: describeSession(agent, columns) };
    case "rename":
      return { output: rename(agent, argument, c) };
    case "export":
      return { output: exportFromRepl(agent, argument, c) };
    case "new":
      if (argument) return { output: c.red("/new takes nothing after it: type /new, then your first prompt.") };
      return { open: "new" };
    case "resume":
      return argument ? { open: "resume", id: argument } : { open: "resume" };
    case "compact":
      return { compact: argument };
    case "rewind":
      return { rewind: true };
    case "tree":
      return { tree: argument };
    case "label":
      return { output: labelLeaf(agent, argument, c) };
    case "fork":
      if (argument) return { output: c.red("/fork takes nothing after it: it copies the conversation as it is now.") };
      return { open: "fork" };
    case "approve":
      return { output: approve(agent, argument, c) };
    case "effort":
      if (!argument && atTerminal()) return { pick: "effort" };
      return { output: effortCommand(agent, argument, c) };
    case "extensions":
      return { extensions: true };
    case "mcp":
      return { output: mcpCommand(agent.mcp, argument, c) };
    case "permissions":
      return { output: permissionsText(agent.approvals, c) };
    case "init":
      if (argument) return { output: c.red("/init takes nothing after it: it reads the repository itself.") };
      return { prompt: initPrompt(agent.cwd) };
    default:
      return {
        output: c.red(`Unknown command /${safeText(name)}: type /help for the list (to send a line that starts with / as a prompt, begin it with a space).`),
      };
  }
}

/** `/rename <title>`: a user title, which no model-written title replaces. */
function rename(agent: Agent, argument: string, c: Colors): string {
  const title = cutToColumns(argument.replace(/\s+/g, " ").trim(), 200);
  if (!title) return c.red("/rename needs a title: /rename fix the flaky date test");
  if (agent.session.messageCount() === 0) return c.red("Nothing to name yet: send a first prompt, then /rename.");
  try {
    agent.session.setTitle(title, "user");
  } catch (error) {
    if (error instanceof UserError) return c.red(safeText(replMessage(error)));
    throw error;
  }
  return `Renamed: ${c.bold(oneLine(title, 80))}`;
}

/** `/export [--md|--html|--jsonl] [file]`: default file `awl-<short id>.<ext>` here; never overwrites. */
function exportFromRepl(agent: Agent, argument: string, c: Colors): string {
  const words = argument.split(/\s+/).filter(Boolean);
  const flags = words.filter((w) => w.startsWith("--"));
  const names = words.filter((w) => !w.startsWith("--"));
  const format = flags.length === 0 ? "md" : flags[0]!.slice(2);
  if (flags.length > 1 || names.length > 1 || !["md", "html", "jsonl"].includes(format)) return c.red("Usage: /export [--md|--html|--jsonl] [file]");
  if (agent.session.messageCount() === 0) return c.red("Nothing to export yet: send a first prompt.");
  const target = resolve(agent.cwd, names[0] ?? `awl-${shortSessionId(agent.cwd, agent.session)}.${format}`);
  try {
    writeNewFile(target, exportText(agent.session.sessionFile, format as ExportFormat));
  } catch (error) {
    if (error instanceof UserError) return c.red(safeText(replMessage(error)));
    throw error;
  }
  return `Exported to ${safeText(target)}${format === "jsonl" ? c.yellow(` (${JSONL_WARNING})`) : " (keys and home paths redacted)"}`;
}

/** The width of /session's labels, with the spaces after them: the values line up after it. */
const LABEL = "Messages ";

/** `  "fix the flaky test"` after the id, when the session has a title. */
function titleText(title: { title: string } | undefined): string {
  return title ? `  "${oneLine(title.title, 60)}"` : "";
}

/** /session: one row per fact, its value's continuation rows under the value (a row wraps between words). */
function describeSession(agent: Agent, columns = 100): string {
  const session = agent.session;
  let input = 0;
  let output = 0;
  let cacheRead = 0;
  let inContext = 0;
  // What the context holds: from the compaction's first kept entry on (a resumed session has read no further back).
  const compaction = session.compaction();
  for (const entry of session.getBranch().slice(session.contextFrom())) {
    if (entry.type !== "message") continue;
    inContext++;
    const usage = entry.message.usage;
    input += (usage?.input ?? 0) + (usage?.cacheRead ?? 0) + (usage?.cacheWrite ?? 0);
    output += usage?.output ?? 0;
    cacheRead += usage?.cacheRead ?? 0;
  }
  const compactions = compaction?.n ?? 0;
  const fileRows = pathRows(safeText(session.sessionFile), hangingWidth(LABEL, columns));
  const file = session.messageCount() > 0 ? fileRows : `${fileRows} (not created yet)`;
  const cached = input ? ` (${compactNumber(cacheRead)} from the cache, ${Math.round((100 * cacheRead) / input)}%)` : "";
  const scope = compaction ? " (the turns in the context)" : "";
  // The model's id and the file's path came from a session file, the command line or the directory's name.
  const rows: [string, string][] = [
    ["Session", `${safeText(shortSessionId(agent.cwd, session))}${titleText(session.title())}`],
    ["File", file],
    ["Model", `${safeText(`${agent.model.provider}/${agent.model.model}`)}${limitsText(agent.activeModelInfo) ? ` (${limitsText(agent.activeModelInfo)})` : ""}`],
    ["Effort", effortText(agent)],
    ["Messages", `${messagesInFile(session.sessionFile, agent.cwd)}${compaction ? ` (${inContext} in the context)` : ""}`],
    ["Tokens", `${compactNumber(input)} in${cached} · ${compactNumber(output)} out${scope}`],
    ["Context", `${meterText(agent.meter())} · ${compactions} compaction${compactions === 1 ? "" : "s"}`],
    ["Cost", safeText(costText(sessionCost(session.sessionFile)) ?? "nothing yet (no request made)")],
    ["Approve", approvalText(agent)],
    ["Sandbox", safeText(agent.sandbox?.describe() ?? "off")],
  ];
  return [...rows.map(([label, value]) => hanging(label.padEnd(LABEL.length), value, columns)), instructionsLine(agent)].join("\n");
}

/** The project instructions the session holds: read back from its system prompt, the same live and resumed (before the first prompt: what was read at start). */
function instructionsLine(agent: Agent): string {
  const cwd = agent.cwd;
  const inPrompt = contextFilesInPrompt(agent.conversation.systemPrompt);
  const line = inPrompt ? contextFilesLine(inPrompt.files, cwd, process.env, inPrompt.more) : contextFilesLine(agent.pendingContextFiles?.files ?? [], cwd);
  return line ?? "Instructions: none (no AGENTS.md or CLAUDE.md)";
}

/** `/approve [mode]`: shows the approval mode in force, or switches to another from the next tool call on. */
function approve(agent: Agent, argument: string, c: Colors): string {
  const mode = argument.trim();
  if (!mode) return `Approve  ${approvalText(agent)}`;
  if (!isApprovalMode(mode)) return c.red(`Unknown approval mode ${safeText(mode)}: use ${APPROVAL_MODES.join(", ")}.`);
  agent.approvals.mode = mode;
  return `Approval mode ${c.bold(mode)} from now on: ${describeMode(mode)}.`;
}

/** "ask (calls that change files or run commands ask first; …) · always allowed: edit, npm test". */
function approvalText(agent: Agent): string {
  const { mode, allowed } = agent.approvals;
  const always = allowed.length && mode === "ask" ? ` · always allowed until awl exits: ${safeText(allowed.join(", "))}` : "";
  return `${mode} (${describeMode(mode)})${always}`;
}
