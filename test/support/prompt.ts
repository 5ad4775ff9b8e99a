// What the model reads from a request, and how the test server counts it.
//
// A request's prompt is a list of units, in the order the APIs process them:
//   Anthropic: each tool, then each system block (a string system is one text
//     block), then each message's content blocks (a string content is one text
//     block);
//   OpenAI: each tool, then each message (the system prompt is a message);
//   Responses: each tool, then the instructions, then each input item.
// Each unit is its JSON text without any `cache_control` field, and a prompt's
// tokens are its bytes / 4, rounded up: promptTokens() is that number, so a
// test can size a request to a context window exactly. (Real tokenizers differ;
// the rule only has to be simple and the same everywhere the server counts.)

export type Protocol = "anthropic" | "openai" | "responses";

export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export interface PromptUnit {
  /** Where the unit sits in the request: "tools.0", "system.1", "messages.2.content.0", "messages.3". */
  at: string;
  /** The unit's JSON, without `cache_control`: what its tokens and the cache's prefix identity are made of. */
  json: string;
  /** UTF-8 bytes of `json`. */
  bytes: number;
  /** "tools", "system", or the message's role: part of the prefix identity, not of the token count. */
  section: string;
  /** Anthropic: the breakpoint on this block (a cache_control on it or inside a tool_result's content). */
  cacheControl?: CacheControl;
  /** Anthropic: whether the block may carry cache_control (not thinking, not an empty text block). */
  cacheable: boolean;
}

/** Tokens for a number of bytes: bytes / 4, rounded up. */
export const tokensOf = (bytes: number): number => Math.ceil(bytes / 4);

/** The tokens of a request's prompt (tools + system + messages, without cache_control markers), as the test server counts them. */
export function promptTokens(protocol: Protocol, body: unknown): number {
  let bytes = 0;
  for (const unit of promptUnits(protocol, body)) bytes += unit.bytes;
  return tokensOf(bytes);
}

/** The prompt's units in processing order (see the top of this file). Tolerates any body shape. */
export function promptUnits(protocol: Protocol, body: unknown): PromptUnit[] {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const units: PromptUnit[] = [];
  const add = (at: string, section: string, value: unknown) => {
    const block = (typeof value === "object" && value !== null ? value : {}) as Record<string, any>;
    const json = JSON.stringify(block === value ? withoutCacheControl(block) : value) ?? "null";
    units.push({
      at,
      json,
      bytes: Buffer.byteLength(json, "utf8"),
      section,
      cacheControl: protocol === "anthropic" ? breakpointOf(block) : undefined,
      cacheable: protocol === "anthropic" && mayCarryCacheControl(block),
    });
  };
  if (Array.isArray(b.tools)) b.tools.forEach((tool, i) => add(`tools.${i}`, "tools", tool));
  if (protocol === "anthropic") {
    if (typeof b.system === "string") add("system", "system", { type: "text", text: b.system });
    else if (Array.isArray(b.system)) b.system.forEach((block, i) => add(`system.${i}`, "system", block));
  }
  if (protocol === "responses") {
    if (typeof b.instructions === "string") add("instructions", "system", b.instructions);
    if (typeof b.input === "string") add("input", "user", b.input);
    else if (Array.isArray(b.input)) b.input.forEach((item: any, i) => add(`input.${i}`, typeof item?.role === "string" ? item.role : String(item?.type), item));
    return units;
  }
  if (Array.isArray(b.messages)) {
    b.messages.forEach((message: any, i) => {
      const role = typeof message?.role === "string" ? message.role : "unknown";
      if (protocol === "openai") return add(`messages.${i}`, role, message);
      if (typeof message?.content === "string") add(`messages.${i}.content.0`, role, { type: "text", text: message.content });
      else if (Array.isArray(message?.content)) message.content.forEach((block: unknown, j: number) => add(`messages.${i}.content.${j}`, role, block));
    });
  }
  // Top-level cache_control (automatic caching) marks the last block that may carry one.
  if (protocol === "anthropic" && isCacheControl(b.cache_control)) {
    const last = units.findLast((unit) => unit.cacheable);
    if (last && !last.cacheControl) last.cacheControl = b.cache_control;
  }
  return units;
}

function withoutCacheControl(block: Record<string, any>): Record<string, any> {
  if (!("cache_control" in block) && !(block.type === "tool_result" && Array.isArray(block.content))) return block;
  const { cache_control: _, ...rest } = block;
  if (rest.type === "tool_result" && Array.isArray(rest.content))
    rest.content = rest.content.map((inner: unknown) => (typeof inner === "object" && inner !== null ? withoutCacheControl(inner as Record<string, any>) : inner));
  return rest;
}

function isCacheControl(value: unknown): value is CacheControl {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "ephemeral";
}

/** The breakpoint a block sets: its own cache_control, else one inside a tool_result's content (the last). */
function breakpointOf(block: Record<string, any>): CacheControl | undefined {
  if (isCacheControl(block.cache_control)) return block.cache_control;
  if (block.type === "tool_result" && Array.isArray(block.content))
    return block.content.map((inner: any) => inner?.cache_control).findLast(isCacheControl);
  return undefined;
}

function mayCarryCacheControl(block: Record<string, any>): boolean {
  if (block.type === "thinking" || block.type === "redacted_thinking") return false;
  if (block.type === "text" && block.text === "") return false;
  return true;
}
