// The in-memory content blocks of a message. Text and thinking grow by appends
// while a response streams; a tool call's input grows as raw JSON text.
// No metadata lives here (provider, model, usage belong to session entries).

export interface TextBlock {
  type: "text";
  text: string;
  /** The Responses API's label for an assistant message ("commentary", "final_answer"), sent back as it came. */
  phase?: string;
  /** A file (or folder) the person's prompt named as `@path`: its path as typed; the text is its content as read then, framed for the model. */
  attached?: string;
}

/**
 * Where a signed thinking block came from: the wire protocol, and the first 12
 * hex digits of SHA-256 of the base URL and the key (never the key). A
 * signature is only ever valid for the API and account that issued it.
 */
export interface ThinkingOrigin {
  api: string;
  fingerprint: string;
}

/**
 * Model reasoning. `signature` is the provider's proof that the text is
 * unaltered (the Messages API requires it back verbatim) or, from the Responses
 * API, the reasoning item's encrypted content (with its summary in
 * `thinking`); a redacted block carries its opaque payload in `signature` and
 * an empty `thinking`.
 */
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
  redacted?: boolean;
  /** Set on every signed block awl writes; blocks written before origins existed have none. */
  origin?: ThinkingOrigin;
}

/** A tool call. `input` is the raw JSON text exactly as the model produced it. */
export interface ToolUseBlock {
  type: "toolUse";
  id: string;
  name: string;
  input: string;
}

export interface ToolResultBlock {
  type: "toolResult";
  toolUseId: string;
  content: string;
  isError?: boolean;
  /** What a `task` call's subagent spent, in tokens (never sent to the model). */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
  /** The MCP server and tool the call reached, by their own names (never sent to the model). */
  mcp?: { server: string; tool: string };
}

export type ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock;

/** Appends a streamed fragment to the block it belongs to. */
export function appendToBlock(block: ContentBlock, delta: string): void {
  switch (block.type) {
    case "text":
      block.text += delta;
      return;
    case "thinking":
      block.thinking += delta;
      return;
    case "toolUse":
      block.input += delta;
      return;
    case "toolResult":
      block.content += delta;
      return;
  }
}
