// On resume: the conversation so far, compactly — prompts, answers, one line
// per tool call — so the person sees where they left off.

import type { Conversation } from "../conversation";
import { toolSummary } from "../tools";
import type { Colors } from "./colors";
import { oneLine, preview } from "./format";

const ANSWER_LINES = 8;

export function renderTranscript(conversation: Conversation, c: Colors, width = 100): string {
  const out: string[] = [];
  for (const message of conversation.messages) {
    if (message.role === "system") continue;
    for (const block of message.content) {
      if (block.type === "text" && block.text.trim()) {
        if (message.role === "user") out.push(`${c.bold(c.green("›"))} ${oneLine(block.text, width - 2)}`);
        else {
          const { lines, more } = preview(block.text.trim(), ANSWER_LINES);
          out.push(...lines, ...(more ? [c.dim(`… ${more} more line${more === 1 ? "" : "s"}`)] : []));
        }
      } else if (block.type === "toolUse") {
        out.push(`${c.cyan("●")} ${c.bold(block.name)} ${c.dim(oneLine(toolSummary(block.name, block.input), width - block.name.length - 3))}`);
      } else if (block.type === "toolResult" && block.isError) {
        out.push(c.red(`  ⎿ ${oneLine(block.content, width - 4)}`));
      }
    }
  }
  return out.join("\n");
}
