// Anthropic as a row of the providers' table (registry.ts): its variables,
// today's models (from its model docs, December 2026), the older models'
// windows, how each model takes thinking, its models endpoint, and the
// Messages API that makes its requests.

import { AnthropicProvider, anthropicHeaders } from "./anthropic";
import { anthropicPage } from "./catalogue-wire";
import type { ProviderRow } from "./registry";
import type { ThinkingRow } from "./thinking-forms";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

const ALL_LEVELS = ["low", "medium", "high", "xhigh", "max"];
const NEWEST = { adaptive: true, budget: false, levels: ALL_LEVELS, hiddenText: true } as const;

/**
 * By id prefix, the more specific rows first. Fable 5 and Mythos 5 (and
 * Mythos Preview) think always and refuse both a budget and `disabled`; Opus
 * 4.7 and later refuse a budget; Opus 4.6 and Sonnet 4.6 take both forms (the
 * budget deprecated); Opus 4.5 takes a budget and effort levels; older models
 * a budget only. `xhigh` came with Opus 4.7; `max` with the 4.6 models. From
 * Opus 4.7 on the thinking text is omitted unless asked for. The models of the
 * preserved-thinking docs bind thinking to its prefix.
 */
const THINKING: readonly ThinkingRow[] = [
  ["claude-fable-5-", { ...NEWEST, alwaysOn: true, binds: true }],
  ["claude-mythos-5-", { ...NEWEST, alwaysOn: true, binds: true }],
  ["claude-fable-5", { ...NEWEST, alwaysOn: true }],
  ["claude-mythos-", { ...NEWEST, alwaysOn: true }],
  ["claude-opus-5-5", { ...NEWEST, binds: true }],
  ["claude-sonnet-5-5", { ...NEWEST, binds: true }],
  ["claude-haiku-5-5", { ...NEWEST, binds: true }],
  ["claude-opus-5", NEWEST],
  ["claude-sonnet-5", NEWEST],
  ["claude-opus-4-8", NEWEST],
  ["claude-opus-4-7", NEWEST],
  ["claude-opus-4-6", { adaptive: true, budget: true, levels: ["low", "medium", "high", "max"] }],
  ["claude-sonnet-4-6", { adaptive: true, budget: true, levels: ["low", "medium", "high", "max"] }],
  ["claude-opus-4-5", { budget: true, levels: ["low", "medium", "high"] }],
  ["claude-", { budget: true }],
];

export const ANTHROPIC: ProviderRow = {
  name: "anthropic",
  label: "Anthropic",
  keyVariable: "ANTHROPIC_API_KEY",
  keyHelp: "key for Anthropic",
  baseUrlVariable: "ANTHROPIC_BASE_URL",
  baseUrlHelp: "Anthropic API host (default https://api.anthropic.com); named when it cannot be reached",
  defaultBaseUrl: "https://api.anthropic.com",
  keyOptional: false,
  apis: ["anthropic-messages"],
  // Its docs: 32 MB, refused with 413 request_too_large.
  maxRequestBytes: 32 * 1024 * 1024,
  ids: { pattern: /^claude/i, shown: "claude-…" },
  defaultModel: "claude-sonnet-5-5",
  defaultFamilies: [/^claude-sonnet-\d+(?:-\d+)?$/],
  defaultFamilyShown: "the newest Sonnet",
  models: [
    { id: "claude-sonnet-5-5", displayName: "Claude Sonnet 5.5", created: day("2026-09-28"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-opus-5-5", displayName: "Claude Opus 5.5", created: day("2026-09-24"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-fable-5-1", displayName: "Claude Fable 5.1", created: day("2026-09-01"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-opus-5", displayName: "Claude Opus 5", created: day("2026-07-24"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-sonnet-5", displayName: "Claude Sonnet 5", created: day("2026-06-30"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-fable-5", displayName: "Claude Fable 5", created: day("2026-06-09"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-haiku-4-5", displayName: "Claude Haiku 4.5", created: day("2025-10-15"), maxInputTokens: 200_000, maxOutputTokens: 64_000 },
  ],
  windows: [
    ["claude-opus-4-8", 1_000_000],
    ["claude-opus-4-7", 1_000_000],
    ["claude-opus-4-6", 1_000_000],
    ["claude-sonnet-4-6", 1_000_000],
    // Opus 4.5/4.1/4, Sonnet 4.5/4 (1M only with a beta header awl does not send), 3.7, 3.5, 3.
    ["claude-", 200_000],
  ],
  thinking: THINKING,
  // platform.claude.com/docs/en/about-claude/pricing and each model's page, read in December 2026 (cache writes: the 5-minute cache awl asks for).
  prices: {
    "claude-sonnet-5-5": { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
    "claude-opus-5-5": { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 },
    "claude-fable-5-1": { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
    "claude-fable-5": { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
    "claude-opus-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-sonnet-5": { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
    "claude-opus-4-7": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-opus-4-6": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-opus-4-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-opus-4-1": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, deprecated: true },
    "claude-sonnet-4-6": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    "claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  },
  catalogue: {
    headers: anthropicHeaders,
    // The largest page its docs allow (1 to 1000); paged by the last id.
    page: (base, after) => `${base}/v1/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ""}`,
    parse: anthropicPage,
    // It resolves aliases, which the list does not show.
    model: (base, id) => `${base}/v1/models/${encodeURIComponent(id)}`,
  },
  connect: (connection) => new AnthropicProvider(connection),
};
