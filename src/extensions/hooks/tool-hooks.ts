// PreToolUse and PostToolUse around one checked call: what the hooks are
// given (the call in Claude Code's names and fields, tools/tool-names.ts) and
// what comes back as awl's (a changed input checked again by the tool, a
// block as the call's refusal, words for the model after its result).

import { checkCall, isValidCall, type ToolCall, type InvalidCall, type ToolOutput } from "../../tools";
import type { HookOutcome, Hooks, Input } from "./hooks";
import { claudeToolName, fromClaudeInput, toClaudeInput, toolResponse } from "./tool-names";

export interface BeforeCall {
  outcome: HookOutcome;
  /** The call to go on with: the one given, or the one a hook's updatedInput made of it (checked again). */
  call: ToolCall | InvalidCall;
  /** Set when a hook changed the input: the input the call runs with (awl's fields), and what its result says of it, so the model knows what ran. */
  changed?: { input: Input; words: string };
}

const NOTHING: HookOutcome = { context: [], notices: [] };

export async function beforeToolCall(hooks: Hooks | undefined, call: ToolCall | InvalidCall, id: string, cwd: string, signal: AbortSignal): Promise<BeforeCall> {
  // A call the tool refuses unrun reaches no hook: there is no input to show one.
  if (!hooks?.has("PreToolUse") || !isValidCall(call)) return { outcome: NOTHING, call };
  const tool_name = claudeToolName(call.name);
  const tool_input = toClaudeInput(call.name, call.input as Input, cwd);
  const outcome = await hooks.run("PreToolUse", { tool_name, tool_input, tool_use_id: id }, tool_name, signal);
  if (!outcome.updatedInput || outcome.block !== undefined) return { outcome, call };
  return { outcome, ...changedCall(call.name, fromClaudeInput(call.name, outcome.updatedInput), "A PreToolUse hook") };
}

/** A call whose input a hook or an extension changed: checked again by its tool, with what its result tells the model of the change. */
export function changedCall(name: string, input: Input, who: string): Pick<BeforeCall, "call" | "changed"> {
  return { call: checkCall(name, JSON.stringify(input)), changed: { input, words: `${who} changed this call's input to ${JSON.stringify(input)}.` } };
}

/** What PostToolUse hooks add to a call's result for the model (a block's reason, added context), and their notices. */
export async function afterToolCall(hooks: Hooks | undefined, call: ToolCall | InvalidCall, id: string, output: ToolOutput, cwd: string, signal: AbortSignal): Promise<{ notices: string[]; addition?: string }> {
  // As Claude Code: after a call that completed; one that failed or was stopped has nothing to follow up.
  if (!hooks?.has("PostToolUse") || !isValidCall(call) || output.isError || output.interrupted) return { notices: [] };
  const tool_name = claudeToolName(call.name);
  const tool_input = toClaudeInput(call.name, call.input as Input, cwd);
  const outcome = await hooks.run("PostToolUse", { tool_name, tool_input, tool_response: toolResponse(call.name, output, tool_input), tool_use_id: id }, tool_name, signal);
  const said = [...(outcome.block !== undefined ? [`PostToolUse hook: ${outcome.block}`] : []), ...outcome.context];
  return { notices: outcome.notices, ...(said.length > 0 ? { addition: said.join("\n") } : {}) };
}
