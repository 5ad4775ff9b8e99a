// The hooks of a turn's edges: SessionStart (once per process, before its
// first prompt), UserPromptSubmit (before the prompt is written: it may block
// the prompt or add context), Stop (when the model is done: it may send the
// model back to work with its reason).

import type { Hooks } from "./hooks";

export interface BeforePrompt {
  /** The prompt is not sent, nor written: why, for the person. */
  block?: string;
  /** Text for the model beside the prompt. */
  context: string[];
  notices: string[];
}

/** `start`: how the session started, when this is the first prompt of the process (SessionStart's matcher and `source`). */
export async function beforePrompt(hooks: Hooks, prompt: string, start: "startup" | "resume" | undefined, signal: AbortSignal): Promise<BeforePrompt> {
  const done: BeforePrompt = { context: [], notices: [] };
  if (start && hooks.has("SessionStart")) {
    const outcome = await hooks.run("SessionStart", { source: start }, start, signal);
    done.context.push(...outcome.context);
    done.notices.push(...outcome.notices);
  }
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
