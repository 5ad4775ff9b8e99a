// The REPL's slash commands. Each returns what to print; "quit" ends the REPL.

import type { Agent } from "../agent/agent";
import { KNOWN_MODELS, parseModelSpec } from "../providers/models";
import { UserError } from "../errors";
import type { Colors } from "./colors";
import { compactNumber } from "./format";

export type CommandResult = { output: string } | "quit";

const HELP = [
  "Commands:",
  "  /model [provider/]model   switch model from the next prompt on (no argument: show the active one and known models)",
  "  /session                  this session's id, file, message count and tokens so far",
  "  /help                     this help",
  "  /quit                     leave (Ctrl+D or Ctrl+C on an empty prompt does the same)",
  "Keys:",
  "  Enter sends · Alt+Enter, Ctrl+J or a trailing \\ adds a newline · ↑/↓ history",
  "  Ctrl+C interrupts a running turn, or clears the line",
].join("\n");

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
    default:
      return { output: c.red(`Unknown command /${name}. Type /help for the list.`) };
  }
}

function showModels(agent: Agent, c: Colors): string {
  const active = `${agent.model.provider}/${agent.model.model}`;
  const known = Object.entries(KNOWN_MODELS).flatMap(([provider, models]) =>
    models.map((m) => `  ${provider}/${m}${`${provider}/${m}` === active ? c.green("  (active)") : ""}`),
  );
  return [`Active: ${c.bold(active)}`, "Known models (any other id works too):", ...known].join("\n");
}

function switchModel(agent: Agent, spec: string, c: Colors): string {
  try {
    const parsed = parseModelSpec(spec);
    const provider = parsed.provider ?? agent.model.provider;
    agent.setModel({ provider, model: parsed.model });
    return `Using ${c.bold(`${provider}/${parsed.model}`)} from the next prompt on.`;
  } catch (error) {
    if (error instanceof UserError) return c.red(error.message);
    throw error;
  }
}

function describeSession(agent: Agent): string {
  const session = agent.session;
  let input = 0;
  let output = 0;
  let messages = 0;
  for (const entry of session.getBranch()) {
    if (entry.type !== "message") continue;
    messages++;
    const usage = "message" in entry ? entry.message.usage : undefined;
    input += usage?.input ?? 0;
    output += usage?.output ?? 0;
  }
  const file = session.messageCount() > 0 ? session.sessionFile : `${session.sessionFile} (not created yet)`;
  return [
    `Session  ${session.sessionId}`,
    `File     ${file}`,
    `Model    ${agent.model.provider}/${agent.model.model}`,
    `Messages ${messages}`,
    `Tokens   ${compactNumber(input)} in · ${compactNumber(output)} out`,
  ].join("\n");
}
