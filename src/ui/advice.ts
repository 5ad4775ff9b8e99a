// What to do about a failure, worded for the REPL: slash commands, not flags.
// The providers name a remedy without wording it (Remedy in
// providers/provider.ts); the command line words the same remedies as flags
// (cli/advice.ts). An error line in the session log carries no advice, so a
// resumed transcript never shows advice meant for another place or time.

import type { AgentEvent } from "../agent/events";
import { AdvisedError, type Remedy } from "../providers";
import { builtinDefault } from "../providers/models";
import { namesInWords } from "../providers/registry";

export function replAdvice(remedy: Remedy): string {
  switch (remedy.kind) {
    case "model":
      if (!remedy.newer?.length) return "choose another with /model <id> (/model alone lists them)";
      return `the newest of its family: ${remedy.newer.join(", ")}; switch with /model ${remedy.newer[0]}`;
    case "key": {
      const variables = remedy.orVariable ? `it (or ${remedy.orVariable}, for a local server)` : "it";
      const commands = remedy.others.map((other) => `/model ${other}/${builtinDefault(other)}`);
      return `awl reads ${variables} when it starts (/quit, export it, start awl again); or choose another provider: ${namesInWords(commands)}`;
    }
  }
}

/** An error's line as the REPL shows it: an AdvisedError with the REPL's advice, any other as it is. */
export function replMessage(error: Error): string {
  return error instanceof AdvisedError ? `${error.fact}: ${replAdvice(error.remedy)}` : error.message;
}

/** A turn's event as the REPL shows it: a failed response's line with the REPL's advice (`complete` adds what the catalogue knows). */
export function adviseInRepl(event: AgentEvent, complete: (remedy: Remedy) => Remedy | undefined = (remedy) => remedy): AgentEvent {
  if (event.type !== "end" || !event.remedy || !event.errorMessage) return event;
  return { ...event, errorMessage: `${event.errorMessage}: ${replAdvice(complete(event.remedy) ?? event.remedy)}` };
}
