// The on-disk format of a session file (spec/phase-4.md, plus DESIGN 16's
// optional fields), as arktype schemas. These are the single source of truth:
// every on-disk type is inferred from them. Importing arktype costs start-up
// time, so only the codec loads this module at run time, on first use;
// everything else uses `import type` alone.
import { type } from "../ark";

export { ArkErrors } from "../ark";

export const TextBlock = type({ type: "'text'", text: "string" });
export const ThinkingBlock = type({ type: "'thinking'", thinking: "string", "signature?": "string", "redacted?": "boolean" });
/** `input` is the tool call's raw JSON text, never parsed here. */
export const ToolUseBlock = type({ type: "'toolUse'", id: "string", name: "string", input: "string" });
export const ToolResultBlock = type({ type: "'toolResult'", toolUseId: "string", content: "string", "isError?": "boolean" });
export const DiskContentBlock = TextBlock.or(ThinkingBlock).or(ToolUseBlock).or(ToolResultBlock);

export const StopReason = type("'stop' | 'length' | 'toolUse' | 'error'");
export const Usage = type({ input: "number", output: "number" });

export const DiskMessage = type({
  role: "'system' | 'user' | 'assistant'",
  content: DiskContentBlock.array(),
  "provider?": "string",
  "model?": "string",
  "stopReason?": StopReason,
  "usage?": Usage,
  "errorMessage?": "string",
});

export const SessionHeader = type({
  type: "'session'",
  version: "number.integer >= 1",
  id: "string > 0",
  timestamp: "string",
  cwd: "string",
  provider: "string",
  model: "string",
});

/** What every entry has. Readers accept any non-empty id (DESIGN 2). */
export const EntryBase = type({ type: "string > 0", id: "string > 0", parentId: "string > 0 | null", timestamp: "string" });

/** User entries carry the provider/model the request went to (written always, optional on read: the spec's own first example lacks it). */
export const MessageEntry = type({
  type: "'message'",
  id: "string > 0",
  parentId: "string > 0 | null",
  timestamp: "string",
  "provider?": "string",
  "model?": "string",
  message: DiskMessage,
});

export type TextBlock = typeof TextBlock.infer;
export type ThinkingBlock = typeof ThinkingBlock.infer;
export type ToolUseBlock = typeof ToolUseBlock.infer;
export type ToolResultBlock = typeof ToolResultBlock.infer;
export type DiskContentBlock = typeof DiskContentBlock.infer;
export type StopReasonString = typeof StopReason.infer;
export type Usage = typeof Usage.infer;
export type DiskMessage = typeof DiskMessage.infer;
export type SessionHeader = typeof SessionHeader.infer;
export type MessageEntry = typeof MessageEntry.infer;
/** An entry of a type this version does not know (e.g. a future `compaction`): indexed, never rebuilt. Its other fields stay in the object untouched. */
export type OtherEntry = typeof EntryBase.infer;
export type SessionEntry = MessageEntry | OtherEntry;
