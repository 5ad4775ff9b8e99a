// The one interface every wire protocol implements. A provider turns a
// Conversation into a streaming request and yields what arrives, in order.
// Providers never touch the disk.

import type { ContentBlock, Conversation, ThinkingOrigin } from "../conversation";
import { UserError } from "../errors";
import type { ThinkingRequest } from "./thinking-plan";

/** A provider's name as --provider, AWL_PROVIDER and the log say it: a row of the table in registry.ts. */
export type ProviderName = string;

/** The wire protocol a response came through, as the log's `api` records it. */
export type WireApi = "anthropic-messages" | "openai-chat" | "openai-responses";

/** Why a response ended, as the on-disk `stopReason` records it. */
export type StopReason = "stop" | "length" | "toolUse" | "error";

/**
 * Tokens one response cost. `input` is the UNCACHED input on both providers;
 * what the prompt cache served or stored is counted apart, so the whole prompt
 * was input + cacheRead + cacheWrite. The cache figures are present only when
 * the API reported them.
 */
export interface Usage {
  input: number;
  output: number;
  /** Input tokens read from the prompt cache. */
  cacheRead?: number;
  /** Input tokens written to the prompt cache (Anthropic; OpenRouter). */
  cacheWrite?: number;
  /** Of `output`, the tokens the model spent reasoning (OpenAI's Responses API reports them). */
  reasoning?: number;
}

/**
 * The request failed because the prompt does not fit the model's context
 * window. `limit` is the window (tokens) the error stated, when it stated one.
 */
export interface ContextOverflow {
  limit?: number;
  /** The prompt's tokens as the API counted them, when the error stated them ("N + X > M"): what the window leaves the answer is limit - input. */
  input?: number;
}

/**
 * What the person can do about a failure, named but not worded. On the command
 * line it is a flag (cli/advice.ts), in the REPL a slash command
 * (ui/advice.ts): whoever shows the error says how, so a provider never needs
 * to know where it runs, and the session log keeps the fact without advice
 * that would be stale, or in the wrong words, when read back.
 */
export type Remedy =
  /**
   * The API does not serve `model` (retired, or never an id): choose another.
   * `newer` is the newest models of its family, filled in by whoever holds
   * the catalogue (the provider only knows what the API said).
   */
  | { kind: "model"; model: string; newer?: readonly string[] }
  /**
   * The provider cannot be used: `variable` (its API key) is not set, nor
   * `orVariable` when that would do instead (a local server's base URL). awl
   * reads them when it starts; or choose one of `others`, the other providers.
   */
  | { kind: "key"; provider: ProviderName; variable: string; orVariable?: string; others: readonly ProviderName[] };

/** A failure that comes with a remedy: `fact` is the line without advice, `message` the same until a front end adds its words. */
export class AdvisedError extends UserError {
  constructor(
    readonly fact: string,
    readonly remedy: Remedy,
  ) {
    super(fact);
  }
}

/** A tool as the model sees it: name, description, JSON schema of its input. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface StreamRequest {
  model: string;
  /** System prompt; providers place it where their API wants it. */
  system: string;
  /** The conversation without its system message. */
  conversation: Conversation;
  tools: ToolDefinition[];
  maxTokens: number;
  /** The thinking asked for; absent: none asked, the model's own default applies. */
  thinking?: ThinkingRequest;
  /** The session's id: the Responses API's `prompt_cache_key`, so every request of a session hits the same cache. */
  sessionId?: string;
  signal: AbortSignal;
}

/**
 * What a stream yields. `index` is the position of the block in the assistant
 * message being built. A stream always ends with exactly one `end` event;
 * failures arrive as `end` with stopReason "error" (never as a throw), so the
 * caller keeps whatever content came before.
 */
export type StreamEvent =
  /** A new block: text/thinking start empty, toolUse starts with input "". */
  | { type: "blockStart"; index: number; block: ContentBlock }
  /** Text appended to the block: text, thinking, or a toolUse's raw JSON input. */
  | { type: "delta"; index: number; text: string }
  /** The thinking block's signature (Anthropic's, or OpenAI's encrypted reasoning), complete, and where it may be sent back. */
  | { type: "signature"; index: number; signature: string; origin: ThinkingOrigin }
  | { type: "blockStop"; index: number }
  /** Something the person should know about the request, shown dimmed in one line (nothing was shown yet). */
  | { type: "notice"; text: string }
  /**
   * Attempt `attempt` of at most `attempts` failed; the next is sent after
   * delayMs. `restart`: part of the answer had arrived when the API said it
   * failed (overloaded mid-stream): that part is dropped, and the answer
   * starts again from nothing (no tool of it has run: tools run once it ends).
   */
  | { type: "retry"; attempt: number; attempts: number; delayMs: number; reason: string; restart?: true }
  | {
      type: "end";
      stopReason: StopReason;
      usage?: Usage;
      /** One readable line, set when stopReason is "error". Never holds an API key. */
      errorMessage?: string;
      /** What the person can do about the error, for whoever shows it to word (the line itself gives no advice). */
      remedy?: Remedy;
      /** True when the caller's AbortSignal ended the stream. */
      aborted?: boolean;
      /** Set when the prompt was too long for the model (never retried): the caller may compact and ask again. */
      overflow?: ContextOverflow;
    };

/** What a wire protocol needs to reach one provider: who it is (its row) and where, with which key. */
export interface Connection {
  provider: ProviderName;
  /** How messages name it ("Anthropic"). */
  label: string;
  keyVariable: string;
  baseUrlVariable: string;
  /** Undefined for a server that needs none. */
  apiKey?: string;
  /** The base URL, the row's default when the variable is unset, without a trailing slash. */
  baseUrl: string;
  env: Record<string, string | undefined>;
}

export interface Provider {
  readonly name: ProviderName;
  /** The wire protocol its requests use. */
  readonly api: WireApi;
  stream(request: StreamRequest): AsyncIterable<StreamEvent>;
}
