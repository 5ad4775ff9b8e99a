import type { Message } from "./message";
import { toolResults, toolUses } from "./message";

/** The ordered messages of one conversation: what providers are given. */
export class Conversation {
  readonly messages: Message[];

  constructor(messages: Message[] = []) {
    this.messages = messages;
  }

  push(message: Message): void {
    this.messages.push(message);
  }

  get last(): Message | undefined {
    return this.messages.at(-1);
  }

  /** The system prompt, if the conversation starts with one. */
  get systemPrompt(): string | undefined {
    const first = this.messages[0];
    if (first?.role !== "system") return undefined;
    return first.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  }

  /** Tool calls of the last assistant message that no later message answers. */
  danglingToolUses() {
    const index = this.messages.findLastIndex((m) => m.role === "assistant");
    if (index < 0) return [];
    const answered = new Set(
      this.messages.slice(index + 1).flatMap((m) => toolResults(m).map((r) => r.toolUseId)),
    );
    return toolUses(this.messages[index]!).filter((u) => !answered.has(u.id));
  }
}
