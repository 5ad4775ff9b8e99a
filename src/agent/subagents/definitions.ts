// Agent definitions in Claude Code's format (docs/subagents.md): Markdown
// files whose front matter names a subagent (`name`, `description`, `tools`,
// `model`, `effort`) and whose body adds to its instructions. They are read
// from the project's .awl/agents/ and .claude/agents/, then the person's
// $XDG_CONFIG_HOME/awl/agents/; the first of a name wins. Prompt-only files:
// they run nothing themselves, so no trust question is asked for them.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../../config-dir";
import { frontMatter } from "../../extensions/commands/front-matter";
import { awlToolName } from "../../extensions/hooks/tool-names";
import { isEffort, type Effort } from "../../providers/thinking-forms";
import { builtinToolNames } from "../../tools";

export interface AgentDefinition {
  name: string;
  description: string;
  /** The awl tools it is offered (never `task`); every tool but `task` when absent. */
  tools?: string[];
  /** An id, `sonnet`/`opus`/`haiku` (the newest of that family), or absent/`inherit`: the parent's. */
  model?: string;
  effort?: Effort;
  /** The body: added to the child's instructions. */
  instructions: string;
  file: string;
}

/** The folders agents are read from, first wins. */
export function agentFolders(cwd: string, env: Record<string, string | undefined>): string[] {
  return [join(cwd, ".awl", "agents"), join(cwd, ".claude", "agents"), join(configDir(env), "agents")];
}

/** The agents defined for this directory, and one line for each thing in their files that was not used. */
export function loadAgents(cwd: string, env: Record<string, string | undefined>): { agents: AgentDefinition[]; notices: string[] } {
  const agents: AgentDefinition[] = [];
  const notices: string[] = [];
  for (const folder of agentFolders(cwd, env)) {
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith(".md")).sort();
    } catch {
      continue; // no such folder
    }
    for (const name of names) {
      const file = join(folder, name);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        notices.push(`agent file ${file} could not be read; skipped`);
        continue;
      }
      const agent = readDefinition(text, file, name.slice(0, -3), notices);
      if (agents.some((a) => a.name === agent.name)) notices.push(`agent ${agent.name} in ${file} is defined earlier too; the earlier one is used`);
      else agents.push(agent);
    }
  }
  return { agents, notices };
}

function readDefinition(text: string, file: string, fileName: string, notices: string[]): AgentDefinition {
  const { fields, body, badLines } = frontMatter(text);
  if (badLines.length) notices.push(`agent file ${file}: line${badLines.length === 1 ? "" : "s"} ${badLines.join(", ")} of its front matter could not be read; skipped`);
  const name = fields.name?.trim() || fileName;
  const agent: AgentDefinition = { name, description: fields.description?.trim() || "", instructions: body.trim(), file };
  if (fields.tools !== undefined) agent.tools = offeredTools(fields.tools, name, notices);
  const model = fields.model?.trim();
  if (model && model !== "inherit") agent.model = model;
  const effort = fields.effort?.trim();
  if (effort && isEffort(effort)) agent.effort = effort;
  else if (effort) notices.push(`agent ${name}: effort ${effort} is not one of off, low, medium, high, xhigh, max; the parent's is used`);
  return agent;
}

/** The awl tools a `tools:` line names (awl's names or Claude Code's); one it cannot offer is named and left out. */
function offeredTools(list: string, agent: string, notices: string[]): string[] {
  const known = builtinToolNames().filter((name) => name !== "task");
  const offered: string[] = [];
  for (const raw of list.split(",").map((t) => t.trim()).filter(Boolean)) {
    const name = awlToolName(raw);
    if (known.includes(name)) {
      if (!offered.includes(name)) offered.push(name);
    } else notices.push(`agent ${agent}: tool ${raw} is not one awl has; ignored`);
  }
  return offered;
}

/** The task tool's description with the agents it can start, so the model knows them and the system prompt stays the same. */
export function withAgents(description: string, agents: readonly AgentDefinition[]): string {
  if (agents.length === 0) return description;
  return [description, "Agents (give one's name as `agent`):", ...agents.map((a) => `- ${a.name}: ${a.description || "(no description)"}`)].join("\n");
}
