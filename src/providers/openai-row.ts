// OpenAI as a row of the providers' table (registry.ts): its variables,
// today's models (from its model docs, December 2026), the older models'
// windows, which models reason and at which levels, its models endpoint, and
// its two protocols: the Responses API for OpenAI's own base URL, Chat
// Completions for any other (the compatible servers' common language: Ollama,
// llama.cpp, vLLM, LM Studio, OpenRouter), AWL_OPENAI_API overriding.

import { UsageError } from "../errors";
import { openaiList } from "./catalogue-wire";
import { bearerHeaders, OpenAIProvider, type OpenAIApi } from "./openai";
import type { ProviderRow } from "./registry";
import type { ThinkingRow } from "./thinking-forms";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
const API_VARIABLE = "AWL_OPENAI_API";

/**
 * Which protocol it speaks: AWL_OPENAI_API when set ("responses" or "chat"),
 * else the Responses API for OpenAI's own base URL and Chat Completions for
 * any other.
 */
export function openaiApi(env: Record<string, string | undefined>, baseUrl: string): OpenAIApi {
  const chosen = env[API_VARIABLE]?.trim().toLowerCase();
  if (chosen === "responses") return "openai-responses";
  if (chosen === "chat") return "openai-chat";
  if (chosen) throw new UsageError(`${API_VARIABLE} must be responses or chat, not "${env[API_VARIABLE]}"`);
  return baseUrl === DEFAULT_BASE_URL ? "openai-responses" : "openai-chat";
}

/** The reasoning models and the `reasoning_effort` values each takes: gpt-5 added `minimal`, gpt-5.1 `none` (in its place), gpt-5.2 `xhigh`. */
const THINKING: readonly ThinkingRow[] = [
  ["gpt-5-chat", {}],
  ["gpt-5.1-chat", {}],
  ["gpt-5.2-chat", {}],
  ["gpt-5.1", { levels: ["none", "low", "medium", "high"] }],
  ["gpt-5.", { levels: ["none", "low", "medium", "high", "xhigh"] }],
  ["gpt-5", { levels: ["minimal", "low", "medium", "high"] }],
  ["o1", { levels: ["low", "medium", "high"] }],
  ["o3", { levels: ["low", "medium", "high"] }],
  ["o4", { levels: ["low", "medium", "high"] }],
];

export const OPENAI: ProviderRow = {
  name: "openai",
  label: "OpenAI",
  keyVariable: "OPENAI_API_KEY",
  keyHelp: "key for OpenAI (not needed for a local server)",
  baseUrlVariable: "OPENAI_BASE_URL",
  baseUrlHelp: `OpenAI-compatible base URL, ending in /v1 (default ${DEFAULT_BASE_URL})`,
  defaultBaseUrl: DEFAULT_BASE_URL,
  // Local compatible servers (Ollama, llama.cpp) need no key; api.openai.com does.
  keyOptional: true,
  apis: ["openai-responses", "openai-chat"],
  variables: [{ name: API_VARIABLE, help: "responses or chat: the protocol (default: responses for OpenAI's own base URL, chat for any other)" }],
  ids: { pattern: /^(gpt|o[134]\b|o[134]-|chatgpt)/i, shown: "gpt-… and o…" },
  defaultModel: "gpt-5.4-mini",
  // Anchored, so dated snapshots ("gpt-5-mini-2025-08-07"), audio and realtime ids never match.
  defaultFamilies: [/^gpt-\d+(?:\.\d+)?-mini$/, /^gpt-\d+(?:\.\d+)?$/],
  defaultFamilyShown: "gpt-…-mini",
  // An input limit is the context less the output limit where the two share one window (gpt-5.5: 1.05M of context, at most 128k of it output).
  models: [
    { id: "gpt-5.5", displayName: "GPT-5.5", created: day("2026-04-23"), maxInputTokens: 922_000, maxOutputTokens: 128_000 },
    { id: "gpt-5.4-mini", displayName: "GPT-5.4 mini", created: day("2026-03-17"), maxInputTokens: 272_000, maxOutputTokens: 128_000 },
    { id: "gpt-5.4", displayName: "GPT-5.4", created: day("2026-03-05"), maxInputTokens: 922_000, maxOutputTokens: 128_000 },
  ],
  windows: [
    ["gpt-5-chat", 128_000],
    ["gpt-5.1-chat", 128_000],
    ["gpt-5.2-chat", 128_000],
    ["gpt-5.4", 922_000],
    ["gpt-5", 272_000],
    ["gpt-4.1", 1_047_576],
    ["gpt-4o", 128_000],
    ["chatgpt-4o", 128_000],
    ["gpt-4-turbo", 128_000],
    ["gpt-4", 8_192],
    ["gpt-3.5-turbo", 16_385],
    ["o1-mini", 128_000],
    ["o1-preview", 128_000],
    ["o1", 200_000],
    ["o3", 200_000],
    ["o4-mini", 200_000],
    ["gpt-oss", 131_072],
  ],
  thinking: THINKING,
  // developers.openai.com/api/docs/pricing, read in December 2026. Its cache is written at no extra cost (the input price).
  prices: {
    "gpt-5.5": { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 },
    "gpt-5.4-mini": { input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: 0.75 },
    "gpt-5.4": { input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: 2.5 },
    "gpt-5.6-luna": { input: 0.2, output: 1.2, cacheRead: 0.02, cacheWrite: 0.25 },
    "gpt-5.4-nano": { input: 0.2, output: 1.25, cacheRead: 0.02, cacheWrite: 0.2, deprecated: true },
    "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
    "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0.25 },
    "gpt-5-nano": { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0.05, deprecated: true },
  },
  catalogue: { headers: bearerHeaders, page: (base) => `${base}/models`, parse: openaiList },
  connect: (connection) => new OpenAIProvider(connection, openaiApi(connection.env, connection.baseUrl)),
};
