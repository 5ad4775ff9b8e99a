// The turn loop of DESIGN.md's data flow. Every message is appended to the
// session log BEFORE it joins the in-memory conversation, so memory never runs
// ahead of what is on disk.

import { Conversation, messageText, textMessage, toolUses, type ContentBlock, type Message } from "../conversation";
import type { ModelRef, SessionManager } from "../session";
import { messageToDisk, preloadSchemas } from "../session";
import { createProvider } from "../providers";
import { applyStreamEvent, finalizeMessage } from "../providers/assemble";
import type { Provider, StopReason, Usage } from "../providers/provider";
import { runTool, toolDefinitions, toolSummary } from "../tools";
import { INTERRUPTED_BY_USER, INTERRUPTED_NOT_RUN, type AgentEvent, type TurnResult } from "./events";
import { systemPrompt } from "./system-prompt";

export interface AgentOptions {
  session: SessionManager;
  cwd: string;
  model: ModelRef;
  thinking?: boolean;
  maxTokens?: number;
  env?: Record<string, string | undefined>;
}

const DEFAULT_MAX_TOKENS = 16_384;

export class Agent {
  readonly session: SessionManager;
  readonly conversation: Conversation;
  readonly cwd: string;
  thinking: boolean;
  #model: ModelRef;
  #provider: Provider;
  #maxTokens: number;
  #env: Record<string, string | undefined>;

  constructor(options: AgentOptions) {
    this.session = options.session;
    this.cwd = options.cwd;
    this.thinking = options.thinking ?? false;
    this.#maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.#env = options.env ?? process.env;
    this.conversation = options.session.rebuildConversation();
    this.#model = options.model;
    this.#provider = createProvider(options.model.provider as Provider["name"], this.#env);
  }

  /**
   * Loads what the first turn needs and start-up skipped: the tools and the
   * session schemas, both arktype (~150 ms, see ark.ts). The REPL calls it once its
   * prompt shows, so the cost falls while the person types.
   */
  warmUp(): void {
    toolDefinitions();
    preloadSchemas();
  }

  get model(): ModelRef {
    return this.#model;
  }

  /** Switches provider/model from the next request on; throws UserError if unusable (no key). */
  setModel(model: ModelRef): void {
    this.#provider = createProvider(model.provider as Provider["name"], this.#env);
    this.#model = model;
  }

  /** One prompt, run until the model stops asking for tools, or until aborted. */
  async runTurn(prompt: string, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<TurnResult> {
    const usage: Usage = { input: 0, output: 0 };
    if (this.conversation.messages.length === 0) {
      const tools = toolDefinitions();
      this.#append(textMessage("system", systemPrompt({ cwd: this.cwd, tools })));
    }
    this.#append(this.#promptMessage(prompt));

    for (;;) {
      const { message, stopReason, aborted, errorMessage, usage: used } = await this.#request(signal, onEvent);
      if (used) {
        usage.input += used.input;
        usage.output += used.output;
      }
      const calls = toolUses(message);
      const runTools = stopReason === "toolUse" && !aborted && calls.length > 0;
      if (!runTools) return { stopReason, aborted, errorMessage, usage, finalText: messageText(message) };

      const results = await this.#runTools(message, signal, onEvent);
      this.#append({ role: "user", content: results });
      if (signal.aborted) {
        return { stopReason: "error", aborted: true, errorMessage: INTERRUPTED_BY_USER, usage, finalText: "" };
      }
    }
  }

  /** The user's message: answers to tool calls left dangling by an interruption, then the prompt. */
  #promptMessage(prompt: string): Message {
    const interrupted: ContentBlock[] = this.conversation.danglingToolUses().map((use) => ({
      type: "toolResult",
      toolUseId: use.id,
      content: INTERRUPTED_NOT_RUN,
      isError: true,
    }));
    return { role: "user", content: [...interrupted, { type: "text", text: prompt }] };
  }

  async #request(signal: AbortSignal, onEvent: (event: AgentEvent) => void) {
    const model = this.#model;
    onEvent({ type: "requestStart", provider: model.provider, model: model.model });
    const message: Message = { role: "assistant", content: [] };
    let end: Extract<AgentEvent, { type: "end" }> = { type: "end", stopReason: "error", errorMessage: "The response ended without a stop reason." };
    const stream = this.#provider.stream({
      model: model.model,
      system: this.conversation.systemPrompt ?? "",
      conversation: new Conversation(this.conversation.messages.filter((m) => m.role !== "system")),
      tools: toolDefinitions(),
      maxTokens: this.#maxTokens,
      thinking: this.thinking,
      signal,
    });
    for await (const event of stream) {
      if (event.type === "end") end = event;
      else applyStreamEvent(message, event);
      onEvent(event);
    }
    const stopReason: StopReason = end.stopReason;
    const aborted = end.aborted ?? false;
    const errorMessage = aborted ? INTERRUPTED_BY_USER : end.errorMessage;
    finalizeMessage(message, { dropIncompleteToolUses: stopReason === "error" });
    this.#append(message, {
      provider: model.provider,
      model: model.model,
      stopReason,
      ...(end.usage ? { usage: end.usage } : {}),
      ...(stopReason === "error" && errorMessage ? { errorMessage } : {}),
    });
    return { message, stopReason, aborted, errorMessage, usage: end.usage };
  }

  /** Runs the calls in order; after an abort the rest are answered as not run. */
  async #runTools(message: Message, signal: AbortSignal, onEvent: (event: AgentEvent) => void): Promise<ContentBlock[]> {
    const results: ContentBlock[] = [];
    for (const call of toolUses(message)) {
      if (signal.aborted) {
        results.push({ type: "toolResult", toolUseId: call.id, content: INTERRUPTED_NOT_RUN, isError: true });
        continue;
      }
      onEvent({ type: "toolStart", id: call.id, name: call.name, summary: toolSummary(call.name, call.input) });
      const output = await runTool(call.name, call.input, { cwd: this.cwd, signal });
      onEvent({ type: "toolEnd", id: call.id, name: call.name, output });
      results.push({ type: "toolResult", toolUseId: call.id, content: output.content, ...(output.isError ? { isError: true } : {}) });
    }
    return results;
  }

  /** Durable first, then in memory. User messages carry the active model's stamp. */
  #append(message: Message, meta?: Parameters<typeof messageToDisk>[1]): void {
    const stamp = message.role === "user" ? this.#model : undefined;
    this.session.appendMessage(messageToDisk(message, meta), stamp);
    this.conversation.push(message);
  }
}
