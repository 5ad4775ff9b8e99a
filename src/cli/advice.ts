// What to do about a failure, worded for the command line: awl's flags. The
// providers name a remedy without wording it (Remedy in providers/provider.ts);
// the REPL words the same remedies as slash commands (ui/advice.ts).

import type { AgentEvent } from "../agent/events";
import { UserError } from "../errors";
import { AdvisedError, type Remedy } from "../providers";
import { namesInWords } from "../providers/registry";

export function commandLineAdvice(remedy: Remedy): string {
  switch (remedy.kind) {
    case "model":
      if (!remedy.newer?.length) return "choose another with --model (awl models lists them)";
      return `the newest of its family: ${remedy.newer.join(", ")}; switch with --model ${remedy.newer[0]}`;
    case "key": {
      const local = remedy.orVariable ? ` set ${remedy.orVariable} for a local server,` : "";
      return `export it,${local} or choose another provider with --provider ${namesInWords(remedy.others)}`;
    }
  }
}

/**
 * A prompt the provider refused after it was written to the log (a model it
 * no longer serves, an effort the model turned out not to take) waits there:
 * the command that sends it with `change`, with no new text (a new prompt would
 * go with it, and the same text again would be sent twice).
 */
export function savedPromptAdvice(sessionId: string, change: string): string {
  return `the prompt is saved: awl -p --resume ${sessionId} ${change} sends it`;
}

/** A model the provider refused (a 404), for a prompt it saved: its family's newest, and the command that sends the prompt to one. */
export function resendAdvice(remedy: Extract<Remedy, { kind: "model" }>, sessionId: string): string {
  if (!remedy.newer?.length) return `${savedPromptAdvice(sessionId, "--model <id>")} (awl models lists them)`;
  return `the newest of its family: ${remedy.newer.join(", ")}; ${savedPromptAdvice(sessionId, `--model ${remedy.newer[0]}`)}`;
}

/** `fact: advice`, or the fact alone. */
export function withCommandLineAdvice(fact: string, remedy: Remedy | undefined): string {
  return remedy ? `${fact}: ${commandLineAdvice(remedy)}` : fact;
}

/** Runs `work` (its promise too); an AdvisedError out of it (a provider without its key) leaves worded for the command line. */
export function onCommandLine<T>(work: () => T): T {
  const worded = (error: unknown) => (error instanceof AdvisedError ? new UserError(withCommandLineAdvice(error.fact, error.remedy), error.exitCode) : error);
  try {
    const result = work();
    return result instanceof Promise ? (result.catch((error: unknown) => Promise.reject(worded(error))) as T) : result;
  } catch (error) {
    throw worded(error);
  }
}

/** The remedy of a turn's failed response (its last `end` event's), for the line -p prints after the turn. */
export function remedyWatcher(): { watch(event: AgentEvent): void; readonly remedy: Remedy | undefined } {
  let remedy: Remedy | undefined;
  return {
    watch: (event) => {
      if (event.type === "end") remedy = event.remedy;
    },
    get remedy() {
      return remedy;
    },
  };
}
