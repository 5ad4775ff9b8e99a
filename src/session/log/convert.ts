// Disk <-> memory. The on-disk message carries metadata (provider, model,
// stopReason, usage, errorMessage) that the in-memory Conversation never sees.
// Type-only imports: this module must not load arktype.
import type { ContentBlock, Message } from "../../conversation";
import type { DiskContentBlock, DiskMessage, StopReasonString, Usage } from "./schema";

export type { StopReasonString };

export interface MessageMeta {
  provider?: string;
  model?: string;
  api?: string;
  stopReason?: StopReasonString;
  interrupted?: true;
  usage?: Usage;
  errorMessage?: string;
}

/**
 * A fresh copy of a block with only its known fields, in the spec's key order.
 * The in-memory and on-disk blocks have the same shape, so one copy serves
 * both directions; copying keeps the two from sharing objects.
 */
function copyBlock(b: ContentBlock | DiskContentBlock): ContentBlock & DiskContentBlock {
  switch (b.type) {
    case "text":
      return withOptional({ type: "text", text: b.text }, { phase: b.phase, attached: b.attached });
    case "thinking":
      return withOptional({ type: "thinking", thinking: b.thinking }, {
        signature: b.signature,
        redacted: b.redacted,
        origin: b.origin && { api: b.origin.api, fingerprint: b.origin.fingerprint },
      });
    case "toolUse":
      return { type: "toolUse", id: b.id, name: b.name, input: b.input };
    case "toolResult":
      return withOptional({ type: "toolResult", toolUseId: b.toolUseId, content: b.content }, { isError: b.isError, usage: b.usage && { ...b.usage }, mcp: b.mcp && { server: b.mcp.server, tool: b.mcp.tool } });
  }
}

export const contentBlockToDisk: (b: ContentBlock) => DiskContentBlock = copyBlock;
export const diskContentBlockToInternal: (b: DiskContentBlock) => ContentBlock = copyBlock;

export function messageToDisk(message: Message, meta: MessageMeta = {}): DiskMessage {
  const { provider, model, api, stopReason, interrupted, usage, errorMessage } = meta;
  return withOptional(
    { role: message.role, content: message.content.map(contentBlockToDisk) },
    {
      provider,
      model,
      api,
      stopReason,
      interrupted,
      usage: usage && withOptional({ input: usage.input, output: usage.output }, { cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite, reasoning: usage.reasoning }),
      errorMessage,
    },
  );
}

export function diskMessageToInternal(m: DiskMessage): Message {
  return { role: m.role, content: m.content.map(diskContentBlockToInternal) };
}

/** Adds the defined optional fields after the required ones, in the spec's key order. */
function withOptional<T extends object, O extends object>(base: T, optional: O): T & Partial<O> {
  const out = base as Record<string, unknown>;
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) out[key] = value;
  return out as T & Partial<O>;
}
