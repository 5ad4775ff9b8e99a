// A short model-written title for a new session, asked once after its first
// answer, in the background (the REPL does not wait for it). The request goes
// to the provider's cheapest current model by the price table when the
// session's own model is one of the provider's priced models (else to a local
// server, say, it goes to the session's model), and its provider, model and
// usage are recorded with the title. Any failure leaves the session as it was
// and says nothing: a title is a convenience. AWL_TITLES=off turns it off; a
// title the person gave (/rename) is never replaced.
import { messageText } from "../conversation";
import { createProvider } from "../providers";
import { cheapestModel, priceOf } from "../providers/prices";
import { isPrompt, type ModelRef, type SessionManager } from "../session";
import { cutToColumns, TITLE_COLUMNS } from "../session/log";
import { askForSummary, transcriptParts } from "./summary";

export const TITLE_SYSTEM =
  "You name coding sessions. Reply with a title of at most 6 words for the conversation the user shows you: what it is about, specific (names, files, errors), no quotes, no final period, nothing else.";

/** How much of the prompt and the answer the title request reads. */
const EXCERPT_CHARS = 2000;

type Env = Record<string, string | undefined>;

/** Whether a model-written title is wanted now: titles on, the session's first prompt just answered, no title the person gave. */
export function wantsTitle(session: SessionManager, env: Env = process.env): boolean {
  return env.AWL_TITLES?.trim().toLowerCase() !== "off" && session.getBranch().filter(isPrompt).length === 1 && session.title()?.source !== "user";
}

/** Asks for a title and writes it; resolves either way, never throws. */
export async function writeModelTitle(session: SessionManager, active: ModelRef, signal: AbortSignal, env: Env = process.env): Promise<void> {
  try {
    const branch = session.getBranch();
    const prompt = branch.find(isPrompt);
    const answer = branch.find((e) => e.type === "message" && e.message.role === "assistant" && messageText(e.message).trim());
    if (!prompt || prompt.type !== "message") return;
    const said = (e: typeof prompt) => messageText(e.message).slice(0, EXCERPT_CHARS);
    const model = priceOf(active.provider, active.model) ? (cheapestModel(active.provider) ?? active.model) : active.model;
    const reply = await askForSummary({
      provider: createProvider(active.provider, env),
      model,
      maxTokens: 1024, // room for a reasoning model's thinking before its few words
      // A one-shot request like a transcript summary's, with the title's own instructions.
      parts: { ...transcriptParts([`User: ${said(prompt)}`, answer?.type === "message" ? `Assistant: ${said(answer)}` : ""].join("\n\n")), system: TITLE_SYSTEM },
      signal,
      sessionId: session.sessionId,
    });
    const title = reply.ok ? cleanTitle(reply.text) : "";
    if (!title || signal.aborted) return;
    session.setTitle(title, "auto", { provider: active.provider, model, usage: reply.usage });
  } catch {
    // A failed title is not worth a word: the first prompt stands for it.
  }
}

/** One line, no surrounding quotes or final period, within the title width. */
function cleanTitle(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  return cutToColumns(line.replace(/^["'“”#*\s]+|["'“”*.\s]+$/g, "").replace(/\s+/g, " "), TITLE_COLUMNS);
}
