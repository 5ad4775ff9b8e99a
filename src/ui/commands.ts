// The REPL's slash commands. Each returns what to print; "quit" ends the REPL.

import type { Agent } from "../agent/agent";
import { KNOWN_MODELS, parseModelSpec } from "../providers/models";
import { UserError } from "../errors";
import type { Colors } from "./colors";
import { contextFilesInPrompt } from "../agent/context-prompt";
import { APPROVAL_MODES, describeMode, isApprovalMode } from "../agent/approval-mode";
import { compactNumber, meterText } from "./format";
import { contextFilesLine } from "./instructions";
import { safeText } from "./safe-text";

/** What to print, "quit", or a compaction for the REPL to run (it streams and can be interrupted). */
export type CommandResult = { output: string } | { compact: string } | "quit";

const HELP = [
  "Commands:",
  "  /model [provider/]model   switch model from the next prompt on (no argument: show the active one and known models)",
  "  /session                  this session's id, file, messages, tokens, cache reads and how full the context is",
  "  /compact [what to keep]    summarize every turn before the latest one, so the context has room again",
  "  /approve [ask|auto|read-only]  when tools may act (no argument: the mode in force and what is always allowed)",
  "  /help                     this help",
  "  /quit                     leave (Ctrl+D on an empty prompt, or Ctrl+C twice, does the same)",
  "Keys:",
  "  Enter sends · Alt+Enter, Ctrl+J or a trailing \\ adds a newline · Tab completes commands and paths",
  "  ↑/↓ history (this directory's prompts, every session) · Ctrl+R searches it (Enter sends, Esc goes back)",
  "  Esc or Ctrl+C interrupts a running turn · Ctrl+C clears the line; on an empty one, press it twice to quit",
  "  Ctrl+D on an empty line quits · a long paste shows as [pasted N lines] and is sent in full",
].join("\n");

/** The slash commands, as /help lists them (Tab completes these). */
export function commandNames(): string[] {
  return [...HELP.matchAll(/^ {2}\/([a-z][\w-]*)/gm)].map((m) => m[1]!);
}

export function isCommand(line: string): boolean {
  return /^\/[a-z]/i.test(line.trim());
}

export function runCommand(line: string, agent: Agent, c: Colors): CommandResult {
  const [name = "", ...rest] = line.trim().slice(1).split(/\s+/);
  const argument = rest.join(" ");
  switch (name.toLowerCase()) {
    case "quit":
    case "exit":
      return "quit";
    case "help":
      return { output: HELP };
    case "model":
      return { output: argument ? switchModel(agent, argument, c) : showModels(agent, c) };
    case "session":
      return { output: describeSession(agent) };
    case "compact":
      return { compact: argument };
    case "approve":
      return { output: approve(agent, argument, c) };
    default:
      return { output: c.red(`Unknown command /${safeText(name)}. Type /help for the list.`) };
  }
}

function showModels(agent: Agent, c: Colors): string {
  const active = `${agent.model.provider}/${agent.model.model}`;
  const known = Object.entries(KNOWN_MODELS).flatMap(([provider, models]) =>
    models.map((m) => `  ${provider}/${m}${`${provider}/${m}` === active ? c.green("  (active)") : ""}`),
  );
  return [`Active: ${c.bold(safeText(active))}`, "Known models (any other id works too):", ...known].join("\n");
}

function switchModel(agent: Agent, spec: string, c: Colors): string {
  try {
    const parsed = parseModelSpec(spec);
    const provider = parsed.provider ?? agent.model.provider;
    agent.setModel({ provider, model: parsed.model });
    return `Using ${c.bold(safeText(`${provider}/${parsed.model}`))} from the next prompt on.`;
  } catch (error) {
    if (error instanceof UserError) return c.red(safeText(error.message));
    throw error;
  }
}

function describeSession(agent: Agent): string {
  const session = agent.session;
  let input = 0;
  let output = 0;
  let cacheRead = 0;
  let messages = 0;
  // What the context holds: from the compaction's first kept entry on (a resumed session has read no further back).
  const branch = session.getBranch();
  const compaction = session.compaction();
  const from = compaction ? branch.findLastIndex((e, i) => i < branch.indexOf(compaction) && e.id === compaction.firstKeptEntryId) : 0;
  for (const entry of branch.slice(Math.max(0, from))) {
    if (entry.type !== "message") continue;
    messages++;
    const usage = entry.message.usage;
    input += (usage?.input ?? 0) + (usage?.cacheRead ?? 0) + (usage?.cacheWrite ?? 0);
    output += usage?.output ?? 0;
    cacheRead += usage?.cacheRead ?? 0;
  }
  const compactions = compaction?.n ?? 0;
  const file = session.messageCount() > 0 ? session.sessionFile : `${session.sessionFile} (not created yet)`;
  const cached = input ? ` (${compactNumber(cacheRead)} from the cache, ${Math.round((100 * cacheRead) / input)}%)` : "";
  const scope = compaction ? " (the turns in the context)" : "";
  // The model's id and the file's path came from a session file, the command line or the directory's name.
  return [
    `Session  ${safeText(session.sessionId)}`,
    `File     ${safeText(file)}`,
    `Model    ${safeText(`${agent.model.provider}/${agent.model.model}`)}`,
    `Messages ${messages}${scope}`,
    `Tokens   ${compactNumber(input)} in${cached} · ${compactNumber(output)} out${scope}`,
    `Context  ${meterText(agent.meter())} · ${compactions} compaction${compactions === 1 ? "" : "s"}`,
    `Approve  ${approvalText(agent)}`,
    instructionsLine(agent),
  ].join("\n");
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

/** "ask (write, edit and bash ask first; …) · always allowed: edit, npm test". */
function approvalText(agent: Agent): string {
  const { mode, allowed } = agent.approvals;
  const always = allowed.length && mode === "ask" ? ` · always allowed until awl exits: ${safeText(allowed.join(", "))}` : "";
  return `${mode} (${describeMode(mode)})${always}`;
}
