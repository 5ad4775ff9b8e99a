// The on-disk format of a session file (docs/session-format.md), as arktype
// schemas. These are the single source of truth: every on-disk type is
// inferred from them, and build.ts generates the checks the codec runs
// (checks.generated.ts) from them. Importing arktype costs start-up time, so
// only the codec loads this module at run time, to word why a line fails;
// everything else uses `import type` alone.
import { type } from "../../ark";

export { ArkErrors } from "../../ark";

/** Tokens. `input` is the uncached input; cache reads and writes are counted apart (both optional); `reasoning` is part of `output`. */
export const Usage = type({ input: "number", output: "number", "cacheRead?": "number", "cacheWrite?": "number", "reasoning?": "number" });

/** `phase`: the Responses API's label of an assistant message ("commentary", "final_answer"), kept to be sent back. */
export const TextBlock = type({ type: "'text'", text: "string", "phase?": "string", "attached?": "string" });
/** Where a signed thinking block may be sent back: the API and a 12-hex fingerprint of its base URL and key. */
export const ThinkingOrigin = type({ api: "string", fingerprint: "string" });
export const ThinkingBlock = type({ type: "'thinking'", thinking: "string", "signature?": "string", "redacted?": "boolean", "origin?": ThinkingOrigin });
/** `input` is the tool call's raw JSON text, never parsed here. */
export const ToolUseBlock = type({ type: "'toolUse'", id: "string", name: "string", input: "string" });
/** `usage`: what a `task` call's subagent spent, all its requests summed (docs/subagents.md); never sent to the model. */
/** The MCP server and tool a call reached, by their own names (the tool's name for the model may be cut to fit the providers' rule). */
export const McpTarget = type({ server: "string", tool: "string" });
export const ToolResultBlock = type({ type: "'toolResult'", toolUseId: "string", content: "string", "isError?": "boolean", "usage?": Usage, "mcp?": McpTarget });
export const DiskContentBlock = TextBlock.or(ThinkingBlock).or(ToolUseBlock).or(ToolResultBlock);

export const StopReason = type("'stop' | 'length' | 'toolUse' | 'error'");

export const DiskMessage = type({
  role: "'system' | 'user' | 'assistant'",
  content: DiskContentBlock.array(),
  "provider?": "string",
  "model?": "string",
  /** The wire protocol that produced an assistant message, as the provider names it (`WireApi` in providers/provider.ts). */
  "api?": "string",
  "stopReason?": StopReason,
  /** An answer the person cut off (Ctrl+C, a signal): written only as true, beside its stopReason "error". */
  "interrupted?": "true",
  "usage?": Usage,
  "errorMessage?": "string",
});

/** The git repository a session was started in: its root commit's sha, and the directory relative to the repository's top (`.` at the top). */
export const ProjectRef = type({ root: "string > 0", path: "string" });
/** Where a fork was copied from: the parent session's id and the entry its copied path ends at. */
export const ForkedFrom = type({ session: "string > 0", entry: "string > 0" });

export const SessionHeader = type({
  type: "'session'",
  version: "number.integer >= 1",
  id: "string > 0",
  timestamp: "string",
  cwd: "string",
  provider: "string",
  model: "string",
  "project?": ProjectRef,
  "forkedFrom?": ForkedFrom,
});

/** What every entry has. Readers accept any non-empty id. An entry of a kind this version does not know is checked against this alone. */
export const EntryBase = type({ type: "string > 0", id: "string > 0", parentId: "string > 0 | null", timestamp: "string" });

/**
 * User entries carry the provider/model the request went to (written always,
 * optional on read: the spec's own first example lacks it) and the effort in
 * force when one was chosen. Assistant entries carry `prefixHash`, a short
 * hash of the system prompt and tool definitions their thinking was made
 * under (a model that binds thinking to its prefix refuses it under others).
 */
export const MessageEntry = type({
  type: "'message'",
  id: "string > 0",
  parentId: "string > 0 | null",
  timestamp: "string",
  "provider?": "string",
  "model?": "string",
  "effort?": "string",
  "prefixHash?": "string",
  message: DiskMessage,
});

/**
 * The earlier part of the conversation, summarized; nothing is removed from
 * the file. The model's context becomes: the system message, the summary with
 * `keptPrompts` (the person's own words, verbatim), then every message from
 * `firstKeptEntryId` (a prompt) on, with the `cutToolResults` shortened.
 */
export const CompactionEntry = type({
  type: "'compaction'",
  id: "string > 0",
  parentId: "string > 0 | null",
  timestamp: "string",
  /** 1 for the session's first compaction, then 2, 3, ... */
  n: "number.integer >= 1",
  summary: "string",
  firstKeptEntryId: "string > 0",
  keptPrompts: "string[]",
  /** toolUseIds of the results in the kept part that the context shortens. */
  cutToolResults: "string[]",
  /** The context window (tokens) it was sized for; later runs with the same model use it (so a window an API stated in an overflow error lives on). */
  window: "number.integer > 0",
  tokensBefore: "number >= 0",
  tokensAfter: "number >= 0",
  /** Who wrote the summary; `usage` is that request's own and never counts toward the context. */
  provider: "string",
  model: "string",
  "usage?": Usage,
  /** How many of the person's turns all summaries so far stand for (the transcript says so on resume). */
  "summarizedTurns?": "number.integer >= 0",
});

/** The fields every entry awl writes starts with, in this order. */
const base = { id: "string > 0", parentId: "string > 0 | null", timestamp: "string" } as const;

/** A file's version in a checkpoint: the SHA-256 (hex) of its bytes, stored as a blob in `<sessions root>/.blobs/`; null: the file did not exist. */
const Version = "string | null";

/** Permission bits (no file type, no set-uid, set-gid or sticky bit is ever restored from them). */
const Mode = "number.integer >= 0";

/**
 * A file write or edit (or a rewind) is about to change: its bytes before
 * and after, as blobs (null: absent), and its permission bits before
 * (`mode`) and after (`modeAfter`, when written). A symbolic link is its
 * target text (`linkBefore`, `linkAfter`; its blob is then null). A path
 * whose name is not UTF-8 is `path` as UTF-8 reads it ("\uFFFD" for the
 * bytes it cannot read) and `pathBytes`, its bytes in base64. Written
 * before the file changes, so a file still holding `before` shows the write
 * never happened. Not part of the model's context.
 */
export const FileChangeEntry = type({
  type: "'file_change'",
  ...base,
  path: "string > 0",
  before: Version,
  after: Version,
  mode: `${Mode} | null`,
  "modeAfter?": `${Mode} | null`,
  "linkBefore?": "string > 0",
  "linkAfter?": "string > 0",
  "pathBytes?": "string > 0",
});

/**
 * A path a shell command changed: the blobs of its bytes before and after
 * where they were kept, or (`git`) the object id of the clean tracked file it
 * was before, which git itself keeps.
 */
export const PathEffect = type({
  path: "string > 0",
  "before?": Version,
  "after?": Version,
  "git?": "string",
  "mode?": Mode,
  "modeAfter?": Mode,
  "linkBefore?": "string > 0",
  "linkAfter?": "string > 0",
  "pathBytes?": "string > 0",
});
/** A path a checkpoint cannot bring back, and why (too large, past the caps, not a regular file). */
export const Untracked = type({ path: "string > 0", reason: "string" });

/** What one shell command changed in the working tree, found by comparing listings of it taken before and after. */
export const BashEffectsEntry = type({
  type: "'bash_effects'",
  ...base,
  created: PathEffect.array(),
  modified: PathEffect.array(),
  deleted: PathEffect.array(),
  untracked: Untracked.array(),
});

/**
 * A session's title: bookkeeping, hung off the leaf it was written at, never
 * the leaf itself. `source`: "auto" (the first prompt, or a model-written
 * title, whose request's provider, model and usage it carries) or "user"
 * (/rename); awl never writes an auto title after a user one, so the latest
 * session_info in the file is the title.
 */
export const SessionInfoEntry = type({
  type: "'session_info'",
  ...base,
  title: "string",
  source: "'auto' | 'user'",
  "provider?": "string",
  "model?": "string",
  "usage?": Usage,
});

/**
 * Moves the leaf: the conversation goes on from `targetId` (an earlier
 * message, compaction or branch summary). Bookkeeping: it hangs off the leaf
 * it was written at and never becomes the leaf itself.
 */
export const LeafEntry = type({ type: "'leaf'", ...base, targetId: "string > 0" });

/** Names `targetId` (bookkeeping, as `leaf`). The latest label of a target wins; an empty one removes it. */
export const LabelEntry = type({ type: "'label'", ...base, targetId: "string > 0", label: "string" });

/**
 * What a path left behind said, written when the leaf moves away from it (on
 * request): the child of the new leaf, and the leaf after it. `fromId` is the
 * end of the path it stands for; the model reads `summary` as a marked summary.
 */
export const BranchSummaryEntry = type({
  type: "'branch_summary'",
  ...base,
  fromId: "string > 0",
  summary: "string",
  /** Who wrote the summary; `usage` is that request's own. */
  "provider?": "string",
  "model?": "string",
  "usage?": Usage,
});

/**
 * What arrived of one content block of a conversation answer while it
 * streamed, since the previous partial of that block (never the whole answer
 * again): written at most once a second, without fsync, so a killed awl keeps
 * what the model had said. Bookkeeping: the child of the leaf (the request's
 * prompt or tool results), never the leaf. `attempt` counts the requests made
 * for this answer (a retry starts a new one; readers use the latest only);
 * `block` is the block's index in the answer.
 */
export const PartialEntry = type({
  type: "'partial'",
  ...base,
  attempt: "number.integer >= 1",
  block: "number.integer >= 0",
  "text?": "string",
  "thinking?": "string",
});

/**
 * An extension's own record (docs/extensions.md), never sent to the model:
 * `customType` names what it is (an extension's name, or a type it chose),
 * `data` is any JSON the extension gave. It continues the conversation, so
 * going back takes it back: what an extension keeps is the fold of the active
 * path's entries of its type. An awl without the extension keeps the line as
 * it is and shows it as one dim line.
 */
export const CustomEntry = type({ type: "'custom'", ...base, customType: "string > 0", data: "unknown" });

/** The text an extension adds to the conversation: plain, or text blocks. */
export const CustomText = type({ type: "'text'", text: "string" });

/**
 * Words an extension (or a hook's added context) puts in the conversation:
 * sent with the next request as the person's words are, marked as the
 * extension's, whether or not the extension is loaded. `display`: whether
 * the transcript shows it.
 */
export const CustomMessageEntry = type({
  type: "'custom_message'",
  ...base,
  customType: "string > 0",
  content: type("string").or(CustomText.array()),
  display: "boolean",
});

/**
 * One entry of a child agent (a `task` call's subagent, docs/subagents.md),
 * written into its parent's log as it happens: `task` is the id of the call
 * it works for, `entry` the child's own entry (its message, partial,
 * compaction or file checkpoint, with ids of its own chain), checked as its
 * kind when it is written. Bookkeeping: the child of the parent's leaf, never
 * the leaf, never sent in the parent's requests.
 */
export const ChildEntry = type({ type: "'child'", ...base, task: "string > 0", entry: EntryBase });

export type TextBlock = typeof TextBlock.infer;
export type ThinkingBlock = typeof ThinkingBlock.infer;
export type ThinkingOrigin = typeof ThinkingOrigin.infer;
export type ToolUseBlock = typeof ToolUseBlock.infer;
export type ToolResultBlock = typeof ToolResultBlock.infer;
export type DiskContentBlock = typeof DiskContentBlock.infer;
export type StopReasonString = typeof StopReason.infer;
export type Usage = typeof Usage.infer;
export type DiskMessage = typeof DiskMessage.infer;
export type SessionHeader = typeof SessionHeader.infer;
export type ProjectRef = typeof ProjectRef.infer;
export type MessageEntry = typeof MessageEntry.infer;
export type CompactionEntry = typeof CompactionEntry.infer;
export type FileChangeEntry = typeof FileChangeEntry.infer;
export type PathEffect = typeof PathEffect.infer;
export type Untracked = typeof Untracked.infer;
export type BashEffectsEntry = typeof BashEffectsEntry.infer;
export type SessionInfoEntry = typeof SessionInfoEntry.infer;
export type ForkedFrom = typeof ForkedFrom.infer;
export type LeafEntry = typeof LeafEntry.infer;
export type LabelEntry = typeof LabelEntry.infer;
export type BranchSummaryEntry = typeof BranchSummaryEntry.infer;
export type PartialEntry = typeof PartialEntry.infer;
export type CustomEntry = typeof CustomEntry.infer;
export type CustomText = typeof CustomText.infer;
export type CustomMessageEntry = typeof CustomMessageEntry.infer;
export type ChildEntry = typeof ChildEntry.infer;
/**
 * An entry of a kind this version does not know: indexed (so parent chains
 * through it still resolve) and otherwise skipped. Its own `type` is kept as
 * `kind`, so that the union below stays tagged by `type`.
 */
export type OpaqueEntry = Omit<typeof EntryBase.infer, "type"> & { type: "opaque"; kind: string };
/** The kinds awl writes. */
export type WrittenEntry = MessageEntry | CompactionEntry | FileChangeEntry | BashEffectsEntry | SessionInfoEntry | LeafEntry | LabelEntry | BranchSummaryEntry | PartialEntry | CustomEntry | CustomMessageEntry | ChildEntry;
export type SessionEntry = WrittenEntry | OpaqueEntry;
