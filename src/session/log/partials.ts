// The answer a killed awl was streaming (docs/session-format.md, "partial"):
// while an answer streams, `partial` entries hold what arrived of each block.
// When its finished message follows they are only history; when none does,
// the partials of the latest attempt are the answer. Only its text is kept:
// thinking without its signature cannot go back to the model, a half-streamed
// tool call never ran, and the model is not told a tool ran.
import type { DiskMessage, PartialEntry } from "./schema";

/** What the errorMessage of such an answer says (the person reads it; the model is sent the text only). */
export const STOPPED_MID_ANSWER = "awl stopped before the answer was finished.";

/** The answer the partials after one entry stand for (their latest attempt's text, block by block); undefined when it has no text. */
export function answerFromPartials(partials: readonly PartialEntry[]): DiskMessage | undefined {
  const latest = latestAttempt(partials);
  const blocks = new Map<number, string>();
  for (const p of partials) if (p.attempt === latest && p.text !== undefined) blocks.set(p.block, (blocks.get(p.block) ?? "") + p.text);
  const content = [...blocks]
    .filter(([, text]) => text.trim() !== "")
    .sort(([a], [b]) => a - b)
    .map(([, text]) => ({ type: "text" as const, text }));
  if (content.length === 0) return undefined;
  return { role: "assistant", content, stopReason: "error", interrupted: true, errorMessage: STOPPED_MID_ANSWER };
}

/** The latest attempt among partials (0: none). */
export function latestAttempt(partials: readonly PartialEntry[]): number {
  return partials.reduce((max, p) => Math.max(max, p.attempt), 0);
}
