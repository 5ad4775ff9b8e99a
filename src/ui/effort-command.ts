// `/effort [level]`: how hard the model thinks from the next prompt on. With
// no level it says the effort in force; a level the model in use does not take
// is refused in one line, and the effort stays as it was.

import type { Agent } from "../agent/agent";
import { UserError } from "../errors";
import { EFFORTS, isEffort } from "../providers/thinking-forms";
import type { Colors } from "./render/colors";
import { safeText } from "./render/safe-text";

export function effortCommand(agent: Agent, argument: string, c: Colors): string {
  const level = argument.trim().toLowerCase();
  if (!level) return `Effort   ${effortText(agent)}`;
  if (!isEffort(level)) return c.red(`Unknown effort ${safeText(level)}: use ${EFFORTS.join(", ")}.`);
  try {
    agent.setEffort(level);
  } catch (error) {
    if (error instanceof UserError) return c.red(`${safeText(error.message)}; the effort stays ${effortText(agent)}.`);
    throw error;
  }
  return `Effort ${c.bold(level)} from the next prompt on.`;
}

/** "high", or what applies when none was chosen. */
export function effortText(agent: Agent): string {
  return agent.effort ?? "the model's default (none chosen)";
}
