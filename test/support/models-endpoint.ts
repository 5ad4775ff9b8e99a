// The models endpoints, as today's APIs answer them (Anthropic's Models API
// reference; OpenAI's models list): Anthropic `GET /v1/models` (a page of
// ModelInfo objects with `capabilities`, paginated by `limit` (1 to 1000,
// default 20) and `after_id`, answered {data, first_id, has_more, last_id})
// and `GET /v1/models/{id}` (one object, aliases resolved; 404 otherwise);
// OpenAI `GET /v1/models` ({object: "list", data: [{id, object, created,
// owned_by}]}). A server given no models plays a compatible server with no
// such endpoint: 404.

import { anthropicErrorBody, checkAnthropicAuth } from "./anthropic-protocol";
import { checkOpenAIAuth, openaiErrorBody } from "./openai-protocol";

/** A model as a test serves it. */
export interface ServedModel {
  id: string;
  displayName?: string;
  /** ISO date of release. */
  created: string;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  /** Anthropic: the thinking types it takes, and its effort levels (none: effort unsupported). */
  thinkingTypes?: ("adaptive" | "enabled")[];
  effortLevels?: string[];
  /** Anthropic: ids `GET /v1/models/{id}` resolves to this model without the list showing them. */
  aliases?: string[];
}

export interface ModelsOptions {
  anthropic?: ServedModel[];
  openai?: ServedModel[];
}

const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"];
const supported = (yes: boolean) => ({ supported: yes });

/** Anthropic's ModelInfo, every capability key present (the reference: "Keys are always present for all known capabilities"). */
function anthropicModel(m: ServedModel) {
  const types = m.thinkingTypes ?? [];
  return {
    type: "model",
    id: m.id,
    display_name: m.displayName ?? m.id,
    created_at: `${m.created}T00:00:00Z`,
    max_input_tokens: m.maxInputTokens ?? null,
    max_tokens: m.maxOutputTokens ?? null,
    capabilities: {
      batch: supported(true),
      citations: supported(true),
      code_execution: supported(true),
      context_management: { supported: true, clear_thinking_20251015: supported(true), clear_tool_uses_20250919: supported(true), compact_20260112: supported(true) },
      effort: { supported: Boolean(m.effortLevels?.length), ...Object.fromEntries(EFFORT_LEVELS.map((level) => [level, supported(m.effortLevels?.includes(level) ?? false)])) },
      image_input: supported(true),
      pdf_input: supported(true),
      structured_outputs: supported(true),
      thinking: { supported: types.length > 0, types: { adaptive: supported(types.includes("adaptive")), enabled: supported(types.includes("enabled")) } },
    },
  };
}

const json = (body: unknown, status = 200) => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The answer to a GET of a models path, or undefined when the path is not one. */
export function answerModels(request: Request, path: string, options: { models?: ModelsOptions; anthropicKey: string; openaiKey: string }): Response | undefined {
  if (request.method !== "GET" || !/^\/v1\/models(\/|$)/.test(path)) return undefined;
  const url = new URL(request.url);
  const anthropic = request.headers.has("x-api-key") || request.headers.has("anthropic-version");
  const served = anthropic ? options.models?.anthropic : options.models?.openai;
  if (!served) return json(anthropic ? anthropicErrorBody("not_found_error", "Not Found") : openaiErrorBody({ message: "Not Found", type: "invalid_request_error", param: null, code: null }), 404);
  if (!anthropic) {
    const problem = checkOpenAIAuth(request.headers, options.openaiKey);
    if (problem) return json(openaiErrorBody(problem), problem.status);
    return json({ object: "list", data: served.map((m) => ({ id: m.id, object: "model", created: Date.parse(`${m.created}T00:00:00Z`) / 1000, owned_by: "openai" })) });
  }
  const problem = checkAnthropicAuth(request.headers, options.anthropicKey);
  if (problem) return json(anthropicErrorBody(problem.type, problem.message), problem.status);
  const newest = [...served].sort((a, b) => b.created.localeCompare(a.created)); // "More recently released models are listed first."
  const id = decodeURIComponent(path.slice("/v1/models/".length));
  if (path.startsWith("/v1/models/")) {
    const found = newest.find((m) => m.id === id || m.aliases?.includes(id));
    return found ? json(anthropicModel(found)) : json(anthropicErrorBody("not_found_error", `model: ${id}`), 404);
  }
  const limit = Number(url.searchParams.get("limit") ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return json(anthropicErrorBody("invalid_request_error", "limit: Input should be less than or equal to 1000"), 400);
  const after = url.searchParams.get("after_id");
  const start = after ? newest.findIndex((m) => m.id === after) + 1 : 0;
  const page = newest.slice(start, start + limit);
  return json({ data: page.map(anthropicModel), first_id: page[0]?.id ?? null, has_more: start + limit < newest.length, last_id: page.at(-1)?.id ?? null });
}

/** Today's Anthropic catalogue (the docs' models overview, December 2026), plus the Sonnets before. */
export const TODAYS_ANTHROPIC: ServedModel[] = [
  { id: "claude-sonnet-5-5", displayName: "Claude Sonnet 5.5", created: "2026-09-28", maxInputTokens: 1_000_000, maxOutputTokens: 128_000, thinkingTypes: ["adaptive"], effortLevels: ["low", "medium", "high", "xhigh", "max"] },
  { id: "claude-opus-5-5", displayName: "Claude Opus 5.5", created: "2026-09-24", maxInputTokens: 1_000_000, maxOutputTokens: 128_000, thinkingTypes: ["adaptive"], effortLevels: ["low", "medium", "high", "xhigh", "max"] },
  { id: "claude-sonnet-5", displayName: "Claude Sonnet 5", created: "2026-06-30", maxInputTokens: 1_000_000, maxOutputTokens: 128_000, thinkingTypes: ["adaptive"], effortLevels: ["low", "medium", "high", "max"] },
  { id: "claude-sonnet-4-6", displayName: "Claude Sonnet 4.6", created: "2026-02-17", maxInputTokens: 1_000_000, maxOutputTokens: 64_000, thinkingTypes: ["adaptive", "enabled"], effortLevels: ["low", "medium", "high", "max"] },
  { id: "claude-haiku-4-5-20251001", displayName: "Claude Haiku 4.5", created: "2025-10-15", maxInputTokens: 200_000, maxOutputTokens: 64_000, thinkingTypes: ["enabled"], aliases: ["claude-haiku-4-5"] },
];

/** Ids the Anthropic API no longer serves: a request naming one is answered 404 not_found_error "model: <id>". */
export const RETIRED_ANTHROPIC = ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-opus-4-1", "claude-3-7-sonnet-20250219"];
