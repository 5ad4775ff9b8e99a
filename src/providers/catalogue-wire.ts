// The models endpoints' answers read into ModelInfo: Anthropic's
// `GET /v1/models` page ({data, has_more, last_id}, each model with
// `created_at`, `max_input_tokens`, `max_tokens` and `capabilities`), OpenAI's
// and compatible servers' `GET /models` list ({object: "list", data: [{id,
// created}]}, some servers adding a context length). Read loosely: a field of
// the wrong type is left out, a model without an id is skipped, and an answer
// that is not a list at all is undefined (garbage, said as such by the caller).

import type { ModelInfo } from "./model-info";
import { isObject } from "../json";

type Json = Record<string, unknown>;

const count = (value: unknown) => (typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined);
const supported = (value: unknown) => isObject(value) && value.supported === true;

/** One page of Anthropic's list, or undefined when the body is not one. */
export function anthropicPage(body: unknown): { models: ModelInfo[]; next?: string } | undefined {
  if (!isObject(body) || !Array.isArray(body.data)) return undefined;
  const models = body.data.flatMap((m) => (isObject(m) && typeof m.id === "string" && m.id ? [anthropicModel(m)] : []));
  const next = body.has_more === true && typeof body.last_id === "string" && body.last_id ? body.last_id : undefined;
  return { models, next };
}

/** One model object, as the list and `GET /v1/models/{id}` give it. */
function anthropicModel(m: Json): ModelInfo {
  const info: ModelInfo = { id: m.id as string };
  if (typeof m.display_name === "string") info.displayName = m.display_name;
  const created = typeof m.created_at === "string" ? Date.parse(m.created_at) : NaN;
  if (created > 0) info.created = created; // the API gives the epoch when it does not know the date
  const input = count(m.max_input_tokens);
  if (input) info.maxInputTokens = input;
  const output = count(m.max_tokens);
  if (output) info.maxOutputTokens = output;
  const capabilities = isObject(m.capabilities) ? m.capabilities : {};
  const thinking = isObject(capabilities.thinking) ? capabilities.thinking : undefined;
  if (thinking && isObject(thinking.types)) info.thinkingTypes = supportedKeys(thinking.types);
  const effort = isObject(capabilities.effort) ? capabilities.effort : undefined;
  if (effort?.supported === true) info.effortLevels = supportedKeys(effort);
  return info;
}

/** The keys of an object whose value says `supported: true` ("supported" itself is the capability's own flag). */
function supportedKeys(object: Json): string[] {
  return Object.keys(object).filter((key) => key !== "supported" && supported(object[key]));
}

/**
 * OpenAI's list, or undefined when the body is not one. `created` is in
 * seconds. A context length is read where a server states one (vLLM
 * `max_model_len`, OpenRouter `context_length`, LM Studio
 * `max_context_length`); OpenAI's own list states none.
 */
export function openaiList(body: unknown): { models: ModelInfo[] } | undefined {
  if (!isObject(body) || !Array.isArray(body.data)) return undefined;
  const models = body.data.flatMap((m) => {
    if (!isObject(m) || typeof m.id !== "string" || !m.id) return [];
    const info: ModelInfo = { id: m.id };
    const created = count(m.created);
    if (created) info.created = created * 1000;
    const input = count(m.context_length) ?? count(m.max_model_len) ?? count(m.max_context_length);
    if (input) info.maxInputTokens = input;
    return [info];
  });
  return { models };
}
