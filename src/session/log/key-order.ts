// The order of keys awl writes on disk, for the parts several kinds share
// (docs/session-format.md): a message, its content blocks, a usage. Each
// kind's own order is its row in kinds.ts.
import type { DiskContentBlock, DiskMessage, Usage } from "./schema";

export function orderMessage(m: DiskMessage): DiskMessage {
  const { role, content, provider, model, api, stopReason, interrupted, usage, errorMessage } = m;
  return defined({ role, content: content.map(orderBlock), provider, model, api, stopReason, interrupted, usage: usage && orderUsage(usage), errorMessage });
}

export function orderUsage(u: Usage): Usage {
  return defined({ input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, reasoning: u.reasoning });
}

function orderBlock(b: DiskContentBlock): DiskContentBlock {
  switch (b.type) {
    case "text":
      return defined({ type: b.type, text: b.text, phase: b.phase, attached: b.attached });
    case "thinking":
      return defined({ type: b.type, thinking: b.thinking, signature: b.signature, redacted: b.redacted, origin: b.origin && { api: b.origin.api, fingerprint: b.origin.fingerprint } });
    case "toolUse":
      return { type: b.type, id: b.id, name: b.name, input: b.input };
    case "toolResult":
      return defined({ type: b.type, toolUseId: b.toolUseId, content: b.content, isError: b.isError, usage: b.usage && orderUsage(b.usage), mcp: b.mcp && { server: b.mcp.server, tool: b.mcp.tool } });
  }
}

/** The object without its undefined keys: an absent optional field is not written. */
export function defined<T extends object>(o: T): T {
  for (const key of Object.keys(o) as (keyof T)[]) if (o[key] === undefined) delete o[key];
  return o;
}
