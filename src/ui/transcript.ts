// On resume: the conversation so far, compactly — prompts, answers, one line
// per tool call — so the person sees where they left off. Answers are shown
// as they were live (./markdown-stream.ts: rendered markdown with colour, the
// wrapped markdown source without), their first ANSWER_LINES rows. A long session
// shows its latest turns only, whole, with a line saying how many came before:
// all 24,000 messages of a 100 MB session were 72,000 lines of scrollback and
// a second of printing, and no one reads them at a prompt. A compacted one
// opens with a line saying so; its summary is never shown as a prompt.
// Everything in it came from the session file, so all of it is made safe to
// show (./safe-text.ts, through oneLine and preview) before it is styled: an
// escape sequence a model or a tool wrote is shown, never replayed.

import type { Conversation, Message } from "../conversation";
import type { SessionContext } from "../session";
import { toolSummary } from "../tools";
import type { Colors } from "./colors";
import { oneLine } from "./format";
import { showAnswer } from "./markdown-stream";

const ANSWER_LINES = 8;
/** About three screens: a turn that starts within them is shown whole. */
export const TRANSCRIPT_LINES = 150;

export function renderTranscript(conversation: Conversation, c: Colors, width = 100, compacted: Pick<SessionContext, "summary" | "compaction"> = {}): string {
  const turns = splitTurns(conversation.messages.filter((m) => m !== compacted.summary));
  const shown: string[][] = [];
  let lines = 0;
  for (let i = turns.length - 1; i >= 0 && lines < TRANSCRIPT_LINES; i--) {
    const rendered = turns[i]!.flatMap((message) => renderMessage(message, c, width));
    shown.unshift(rendered);
    lines += rendered.length;
  }
  const hidden = turns.length - shown.length;
  const note = hidden ? [c.dim(`… ${hidden.toLocaleString("en-US")} earlier prompt${hidden === 1 ? "" : "s"} and ${hidden === 1 ? "its" : "their"} answers not shown`)] : [];
  const summarized = compacted.compaction ? [c.dim(compactionNote(compacted.compaction))] : [];
  return [...summarized, ...note, ...shown.flat()].join("\n");
}

/** "… 3 compactions, 41 turns summarized" */
function compactionNote(c: { n: number; summarizedTurns?: number }): string {
  const turns = c.summarizedTurns === undefined ? "" : `, ${c.summarizedTurns.toLocaleString("en-US")} turn${c.summarizedTurns === 1 ? "" : "s"} summarized`;
  return `… ${c.n} compaction${c.n === 1 ? "" : "s"}${turns}`;
}

/** Turns, each from a prompt the person typed to just before the next one. */
function splitTurns(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    const isPrompt = message.role === "user" && message.content.some((b) => b.type === "text" && b.text.trim());
    if (isPrompt || turns.length === 0) turns.push([message]);
    else turns.at(-1)!.push(message);
  }
  return turns;
}

function renderMessage(message: Message, c: Colors, width: number): string[] {
  const out: string[] = [];
  for (const block of message.content) {
    if (block.type === "text" && block.text.trim()) {
      if (message.role === "user") out.push(`${c.bold(c.green("›"))} ${oneLine(block.text, width - 2)}`);
      else {
        // Its rows without the final line end (an HTML block's rendering closes its style after it).
        const rows = showAnswer(block.text.trim(), width, c.isColorSupported).replace(/\n((?:\x1b\[[0-9;]*m)*)$/, "$1").split("\n");
        const more = rows.length - ANSWER_LINES;
        if (more <= 0) out.push(...rows);
        else {
          // Cut between two rendered rows: a style still open there must not run into the next line.
          const shown = rows.slice(0, ANSWER_LINES);
          if (c.isColorSupported) shown[shown.length - 1] += "\x1b[0m";
          out.push(...shown, c.dim(`… ${more} more line${more === 1 ? "" : "s"}`));
        }
      }
    } else if (block.type === "toolUse") {
      const name = oneLine(block.name, 60);
      out.push(`${c.cyan("●")} ${c.bold(name)} ${c.dim(oneLine(toolSummary(block.name, block.input), width - name.length - 3))}`);
    } else if (block.type === "toolResult" && block.isError) {
      out.push(c.red(`  ⎿ ${oneLine(block.content, width - 4)}`));
    }
  }
  return out;
}
