// The session's own hooks as the turn loop meets them (docs/hooks.md):
// SessionStart once, its context held for the next prompt; UserPromptSubmit
// before each prompt; SessionEnd as the session is left. A subagent's task is
// no prompt of the person's, so a child agent has none of these.

import type { Hooks } from "../extensions/hooks/hooks";
import { atSessionEnd, atSessionStart, beforePrompt } from "../extensions/hooks/turn-hooks";

export class SessionHooks {
  /** SessionStart's run, once: what the first turn says (the settings' problems, `notices`, the hooks' notices). */
  #start: Promise<string[]> | undefined;
  #said = false;
  /** What SessionStart added for the model: it goes with the next prompt. */
  #context: string[] = [];

  /** `notices`: what else the first turn says beside the settings' problems (the agent definitions'). */
  constructor(
    private readonly hooks: Hooks,
    private readonly notices: readonly string[],
  ) {}

  /** Runs SessionStart, once (the REPL as it opens the session, while the person types; else the first turn, which waits for it either way). */
  start(fresh: boolean, signal: AbortSignal): Promise<string[]> {
    this.#start ??= atSessionStart(this.hooks, fresh ? "startup" : "resume", signal).then((said) => {
      this.#context = said.context;
      return [...this.hooks.problems, ...this.notices, ...said.notices];
    });
    return this.#start;
  }

  /**
   * Before a prompt is written: SessionStart's words the first time, then
   * UserPromptSubmit. A block keeps the prompt out (and SessionStart's
   * context for the next one); else the context to add after the prompt.
   */
  async beforePrompt(prompt: string, fresh: boolean, signal: AbortSignal, say: (text: string) => void): Promise<{ block?: string; context: string[] }> {
    const started = await this.start(fresh, signal);
    if (!this.#said) for (const text of started) say(text);
    this.#said = true;
    const hooked = await beforePrompt(this.hooks, prompt, signal);
    for (const text of hooked.notices) say(text);
    if (hooked.block !== undefined) return { block: hooked.block, context: [] };
    return { context: [...this.#context.splice(0), ...hooked.context] };
  }

  /** Runs SessionEnd as the session is left (`reason` as Claude Code gives it); returns its notices. */
  end(reason: "prompt_input_exit" | "clear" | "other", signal: AbortSignal): Promise<string[]> {
    return atSessionEnd(this.hooks, reason, signal);
  }
}
