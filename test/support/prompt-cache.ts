// Prompt caching as each API reports it, so tests can see what awl's requests
// would cost: Anthropic's explicit breakpoints and OpenAI's automatic prefix
// cache. The server remembers earlier requests per model, for its lifetime
// (the real caches expire after 5 minutes or an hour; tests are shorter).
//
// Anthropic (docs: "Prompt caching"): a breakpoint (`cache_control`) caches the
// prefix up to and including its block, if that prefix reaches the model's
// minimum cacheable length; a shorter one is simply not cached. A request reads
// the longest prefix cached by an earlier request that ends at a block boundary
// at most LOOKBACK_BLOCKS blocks before one of its breakpoints, and writes what
// lies between that and its last breakpoint. `input_tokens` is the rest.
//
// OpenAI (docs: "Prompt caching"; cookbook "Prompt Caching 201"): automatic
// for prompts of 1024 tokens or more, "with cache hits occurring in increments
// of 128 tokens": `cached_tokens` is the longest common prefix with an earlier
// prompt, rounded down to 1024 + a multiple of 128.

import { createHash } from "node:crypto";
import { type PromptUnit, promptUnits, tokensOf } from "./prompt";

/** How far back from a breakpoint Anthropic looks for an earlier cache entry ("about 20 blocks"). */
export const LOOKBACK_BLOCKS = 20;
/** OpenAI caches prompts of at least this many tokens. */
export const OPENAI_MIN_CACHED_TOKENS = 1024;
/** OpenAI's cache hits grow in steps of this many tokens. */
export const OPENAI_CACHE_STEP = 128;

/**
 * Anthropic's minimum cacheable prompt length for a model (its docs: 4096 for
 * Claude Opus 4.6 and 4.5 and Haiku 4.5; 2048 for Haiku 3.5 and 3; 1024 for
 * the Sonnet models, Opus 4.1 and 4).
 */
export function anthropicMinCacheableTokens(model: string): number {
  if (/opus-4-[56]|haiku-4-5/.test(model)) return 4096;
  if (/3-5-haiku|3-haiku|haiku-3/.test(model)) return 2048;
  return 1024;
}

/** OpenAI's `cached_tokens` for a common prefix of this many tokens. */
export function openaiCachedTokens(commonPrefixTokens: number, minimum = OPENAI_MIN_CACHED_TOKENS): number {
  if (commonPrefixTokens < minimum) return 0;
  return minimum + Math.floor((commonPrefixTokens - minimum) / OPENAI_CACHE_STEP) * OPENAI_CACHE_STEP;
}

/** A request's input tokens, split as the API reports them. `input` is the uncached part. */
export interface PromptUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of `cacheWrite` written with a 1-hour TTL (Anthropic's cache_creation.ephemeral_1h_input_tokens). */
  cacheWrite1h: number;
}

export class AnthropicPromptCache {
  /** model and thinking configuration -> identities of the cached prefixes. */
  readonly #entries = new Map<string, Set<string>>();
  readonly #minimum: (model: string) => number;

  constructor(minimum: (model: string) => number) {
    this.#minimum = minimum;
  }

  /** Reports a request's cache use and remembers the prefixes it caches. */
  account(body: unknown, model: string): PromptUsage {
    const units = promptUnits("anthropic", body);
    const ends: number[] = []; // tokens of the prefix ending at each unit
    let bytes = 0;
    for (const unit of units) ends.push(tokensOf((bytes += unit.bytes)));
    const total = tokensOf(bytes);
    const breakpoints = units.flatMap((unit, i) => (unit.cacheControl ? [i] : []));
    if (breakpoints.length === 0) return { input: total, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 };

    const ids = prefixIdentities(units, Math.max(...breakpoints));
    // A cache entry serves requests of the same model and thinking configuration (changing it voids the cache).
    const key = `${model}\0${JSON.stringify((body as { thinking?: unknown } | null)?.thinking ?? null)}`;
    const cached = this.#entries.get(key) ?? new Set<string>();
    this.#entries.set(key, cached);
    let read = 0;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - LOOKBACK_BLOCKS); i--) {
        if (cached.has(ids[i]!)) {
          read = Math.max(read, ends[i]!);
          break;
        }
      }
    }
    const minimum = this.#minimum(model);
    const last = breakpoints.at(-1)!;
    const write = ends[last]! >= minimum ? ends[last]! - read : 0;
    const last1h = breakpoints.findLast((i) => units[i]!.cacheControl!.ttl === "1h");
    const write1h = last1h !== undefined && write > 0 ? Math.min(write, Math.max(0, ends[last1h]! - read)) : 0;
    for (const b of breakpoints) if (ends[b]! >= minimum) cached.add(ids[b]!);
    return { input: total - read - write, cacheRead: read, cacheWrite: write, cacheWrite1h: write1h };
  }
}

/** A digest per prefix (units 0..i) up to `through`, chained so each unit is hashed once. */
function prefixIdentities(units: PromptUnit[], through: number): string[] {
  const ids: string[] = [];
  let previous = "";
  for (let i = 0; i <= through; i++) {
    const unit = units[i]!;
    previous = createHash("sha256").update(previous).update("\0").update(unit.section).update("\0").update(unit.json).digest("hex");
    ids.push(previous);
  }
  return ids;
}

export class OpenAIPromptCache {
  /** model -> the serialized prompts of earlier requests, newest last (a bounded number). */
  readonly #prompts = new Map<string, string[]>();
  readonly #minimum: (model: string) => number;
  static readonly KEEP = 64;

  constructor(minimum: (model: string) => number) {
    this.#minimum = minimum;
  }

  /** `partition`: which earlier prompts this one may share a prefix with (the Responses API's prompt_cache_key routes to one). */
  account(body: unknown, model: string, protocol: "openai" | "responses" = "openai", partition = model): PromptUsage {
    const prompt = promptUnits(protocol, body).map((unit) => unit.json).join("");
    const total = tokensOf(Buffer.byteLength(prompt, "utf8"));
    const earlier = this.#prompts.get(partition) ?? [];
    let common = 0; // characters
    for (const other of earlier) common = Math.max(common, commonPrefixLength(prompt, other));
    // Only whole tokens of the shared prefix count.
    const shared = Math.floor(Buffer.byteLength(prompt.slice(0, common), "utf8") / 4);
    const cacheRead = Math.min(total, openaiCachedTokens(shared, this.#minimum(model)));
    earlier.push(prompt);
    if (earlier.length > OpenAIPromptCache.KEEP) earlier.shift();
    this.#prompts.set(partition, earlier);
    return { input: total - cacheRead, cacheRead, cacheWrite: 0, cacheWrite1h: 0 };
  }
}

/** Length of the common prefix of two strings, compared a chunk at a time. */
function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  const CHUNK = 4096;
  let i = 0;
  while (i + CHUNK <= n && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
