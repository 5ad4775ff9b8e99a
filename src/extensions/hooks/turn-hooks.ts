// The hooks of a session's and a turn's edges: SessionStart (as the REPL
// opens a session, or before -p's prompt), UserPromptSubmit (before the
// prompt is written: it may block the prompt or add context), Stop (when the
// model is done: it may send the model back to work with its reason),
// SessionEnd (as the session is left).

import type { Hooks } from "./hooks";

export interface BeforePrompt {
  /** The prompt is not sent, nor written: why, for the person. */
  block?: string;
  /** Text for the model beside the prompt. */
  context: string[];
  notices: string[];
}

/** SessionStart, told how the session started (its matcher and `source`): what its hooks add for the model, and their notices. */
export async function atSessionStart(hooks: Hooks, source: "startup" | "resume", signal: AbortSignal): Promise<{ context: string[]; notices: string[] }> {
  if (!hooks.has("SessionStart")) return { context: [], notices: [] };
  const outcome = await hooks.run("SessionStart", { source }, source, signal);
  return { context: outcome.context, notices: outcome.notices };
}

/** SessionEnd, told why (Claude Code's `reason`): only their notices; nothing they say keeps the session open. */
export async function atSessionEnd(hooks: Hooks, reason: "prompt_input_exit" | "clear" | "other", signal: AbortSignal): Promise<string[]> {
  if (!hooks.has("SessionEnd")) return [];
  return (await hooks.run("SessionEnd", { reason }, undefined, signal)).notices;
}

export async function beforePrompt(hooks: Hooks, prompt: string, signal: AbortSignal): Promise<BeforePrompt> {
  const done: BeforePrompt = { context: [], notices: [] };
  if (hooks.has("UserPromptSubmit")) {
    const outcome = await hooks.run("UserPromptSubmit", { prompt }, undefined, signal);
    done.context.push(...outcome.context);
    done.notices.push(...outcome.notices);
    if (outcome.block !== undefined) done.block = outcome.block;
  }
  return done;
}

/**
 * The Stop hooks' word when the model ends its answer: a block's reason is
 * what the model is told to go on with (undefined: it stops). `active`: a Stop
 * hook already sent it back in this turn, so a hook can let it stop. A
 * subagent's end runs the SubagentStop hooks instead, read the same way.
 */
export async function atStop(hooks: Hooks, active: boolean, signal: AbortSignal, event: "Stop" | "SubagentStop" = "Stop"): Promise<{ goOn?: string; notices: string[] }> {
  if (!hooks.has(event)) return { notices: [] };
  const outcome = await hooks.run(event, { stop_hook_active: active }, undefined, signal);
  return { notices: outcome.notices, ...(outcome.block !== undefined && !signal.aborted ? { goOn: outcome.block } : {}) };
}
