// The session's own hooks as the turn loop meets them (docs/hooks.md), each
// after the extensions' handlers of the same moment (docs/extensions.md):
// SessionStart once, its context held for the next prompt; UserPromptSubmit
// before each prompt, given the prompt as the handlers left it; SessionEnd as
// the session is left. A subagent's task is no prompt of the person's, so a
// child agent has none of these.

import type { Hooks } from "../extensions/hooks/hooks";
import { atSessionEnd, atSessionStart, beforePrompt } from "../extensions/hooks/turn-hooks";
import type { AgentSeam } from "../extensions/seam";

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
    private readonly session: { sessionId: string; cwd: string },
    private readonly seam: AgentSeam | undefined,
  ) {}

  /** Runs the handlers of session_start, then SessionStart, once (the REPL as it opens the session, while the person types; else the first turn, which waits for it either way). */
  start(fresh: boolean, signal: AbortSignal): Promise<string[]> {
    this.#start ??= (async () => {
      await this.seam?.sessionStart({ ...this.session, resumed: !fresh }, signal);
      const said = await atSessionStart(this.hooks, fresh ? "startup" : "resume", signal);
      this.#context = said.context;
      return [...this.hooks.problems, ...this.notices, ...said.notices];
    })();
    return this.#start;
  }

  /**
   * Before a prompt is written: SessionStart's words the first time, then the
   * handlers of before_prompt (which may refuse it or change its text), then
   * UserPromptSubmit. A refusal or a block keeps the prompt out (and
   * SessionStart's context for the next one), with words for the person;
   * else the prompt to write and the context to add after it.
   */
  async beforePrompt(prompt: string, fresh: boolean, signal: AbortSignal, say: (text: string) => void): Promise<{ blocked: string } | { prompt: string; context: string[] }> {
    const started = await this.start(fresh, signal);
    if (!this.#said) for (const text of started) say(text);
    this.#said = true;
    const handled = this.seam ? await this.seam.beforePrompt(prompt, signal) : { text: prompt };
    if ("refused" in handled) return { blocked: handled.refused };
    const hooked = await beforePrompt(this.hooks, handled.text, signal);
    for (const text of hooked.notices) say(text);
    if (hooked.block !== undefined) return { blocked: `a UserPromptSubmit hook blocked this prompt: ${hooked.block}` };
    return { prompt: handled.text, context: [...this.#context.splice(0), ...hooked.context] };
  }

  /** Runs SessionEnd as the session is left (`reason` as Claude Code gives it); returns its notices. */
  end(reason: "prompt_input_exit" | "clear" | "other", signal: AbortSignal): Promise<string[]> {
    return atSessionEnd(this.hooks, reason, signal);
  }
}
