// A provider pointed at the strict test server, and a way to run one request
// into an assembled assistant message, as the agent does.
import { Conversation, type Message } from "../../src/conversation";
import { createProvider } from "../../src/providers";
import { applyStreamEvent, finalizeMessage } from "../../src/providers/assemble";
import type { ProviderName, StreamEvent, ToolDefinition } from "../../src/providers/provider";
import { startTestServer } from "../support/server";
import { collect, endOf } from "./helpers";

export const TOOLS: ToolDefinition[] = [
  { name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
];

export const MODELS: Record<ProviderName, string> = { anthropic: "claude-sonnet-4-5", openai: "gpt-5-mini" };

export async function serverFixture(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options);
  const env: Record<string, string> = {
    ANTHROPIC_API_KEY: server.anthropicKey,
    ANTHROPIC_BASE_URL: server.anthropicUrl,
    OPENAI_API_KEY: server.openaiKey,
    OPENAI_BASE_URL: server.openaiUrl,
    AWL_RETRY_BASE_MS: "2",
    AWL_STREAM_IDLE_TIMEOUT_MS: "300",
  };

  /** One request: the events, and the assistant message they build (finalised as the agent does). */
  async function ask(
    name: ProviderName,
    messages: Message[],
    options: { thinking?: boolean; signal?: AbortSignal; onEvent?: (event: StreamEvent) => void; system?: string; model?: string; env?: Record<string, string>; sessionId?: string } = {},
  ) {
    const provider = createProvider(name, { ...env, ...options.env });
    const events: StreamEvent[] = [];
    const model = options.model ?? MODELS[name]!;
    const message: Message = { role: "assistant", content: [], model };
    const stream = provider.stream({
      model,
      system: options.system ?? "You are a test.",
      conversation: new Conversation(messages),
      tools: TOOLS,
      maxTokens: 4096,
      thinking: options.thinking ? (name === "anthropic" ? { form: "budget", budget: 2048 } : { form: "level", level: "high" }) : undefined,
      sessionId: options.sessionId,
      signal: options.signal ?? new AbortController().signal,
    });
    for await (const event of stream) {
      events.push(event);
      applyStreamEvent(message, event);
      options.onEvent?.(event);
    }
    const end = endOf(events);
    finalizeMessage(message, { dropIncompleteToolUses: end.stopReason === "error" });
    return { events, end, message, retries: events.filter((e) => e.type === "retry") };
  }

  /** What `run` returns, and the requests the server saw while it ran. */
  async function requestsDuring<T>(run: () => Promise<T>) {
    const before = server.requests.length;
    const result = await run();
    return { result, requests: server.requests.slice(before) };
  }

  return { server, env, ask, requestsDuring, stop: () => server.stop() };
}

export const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
export { collect };
