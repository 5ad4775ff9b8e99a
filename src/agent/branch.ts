// Going back within a session with /tree (the conversation only; /rewind and
// `awl rewind`, which take the files too, are rewind.ts): the leaf moves to an
// earlier entry with one `leaf` entry, and, when the person asks, the path
// left behind is summarized first into a `branch_summary`, the child of the
// new leaf, which the model then reads in place of that path. Nothing is
// removed: the abandoned path stays in the file, and /tree can go back to it.

import { diskMessageToInternal, type SessionEntry } from "../session";
import { createProvider } from "../providers";
import type { Agent } from "./agent";
import { askForSummary, summaryRequest, transcriptLines, transcriptParts } from "./summary";

export interface Move {
  /** The summary was asked for but failed: the move happened without it. */
  summaryFailed?: string;
  summarized: boolean;
}

const SUMMARY_WORDS = 400;
const SUMMARY_TOKENS = 2048;

/** Moves the agent's session to `targetId` (a message, compaction or branch summary), summarizing the path left when asked. */
export async function moveTo(agent: Agent, targetId: string, o: { summarize?: boolean; signal?: AbortSignal } = {}): Promise<Move> {
  const session = agent.session;
  const fromId = session.getLeafId();
  const left = o.summarize && fromId !== null ? abandoned(session.getBranch(), new Set(session.getBranch(targetId))) : [];
  session.moveLeaf(targetId);
  let move: Move = { summarized: false };
  if (left.length && fromId !== null) {
    const transcript = transcriptLines(left.flatMap((e) => (e.type === "message" ? [diskMessageToInternal(e.message)] : []))).join("\n");
    const answer = await askForSummary({
      provider: createProvider(agent.model.provider as Parameters<typeof createProvider>[0]),
      model: agent.model.model,
      maxTokens: SUMMARY_TOKENS,
      parts: transcriptParts(summaryRequest({ transcript, maxWords: SUMMARY_WORDS })),
      signal: o.signal ?? new AbortController().signal,
      sessionId: session.sessionId,
    });
    if (answer.ok) {
      session.appendBranchSummary({ fromId, summary: answer.text, provider: agent.model.provider, model: agent.model.model, ...(answer.usage ? { usage: answer.usage } : {}) });
      move = { summarized: true };
    } else move = { summarized: false, summaryFailed: answer.errorMessage };
  }
  await agent.moved("tree", o.signal ?? new AbortController().signal);
  return move;
}

/** The entries of `path` (root to the old leaf) after the point where it leaves the new path. */
function abandoned(path: readonly SessionEntry[], kept: ReadonlySet<SessionEntry>): SessionEntry[] {
  let common = -1;
  path.forEach((entry, i) => {
    if (kept.has(entry)) common = i;
  });
  return path.slice(common + 1);
}
