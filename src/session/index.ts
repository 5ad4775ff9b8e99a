// The session layer's public surface. Importing it does not load arktype: the
// codec loads the schemas on first use (see codec.ts).
export * from "./log/codec";
export * from "./log/convert";
export { CUT_KEEP_BYTES, cutMiddle, isPrompt, summaryMessage, type ContextSize, type SessionContext } from "./log/context";
export { cwdNote, isCwdNote, isSaidText, toldDirectory } from "./log/cwd-note";
export { addUsage, contextAt, heldEntries, usageOf, type ContextThen, type HeldEntry } from "./tree/context-facts";
export { newEntryId, newSessionId } from "./log/ids";
export { describeSessions, findSession, listSessions, sessionIdsByName, shortIdLength, type SessionInfo, type SessionMatch } from "./store/listing";
export { BlobStore, blobDir, sha256 } from "./checkpoints/blob-store";
export { FORMAT_VERSION, SessionManager, type BashEffectsFields, type CompactionFields, type FileChangeFields, type ModelRef } from "./log/manager";
export { encodeCwd, idFromFileName, sessionDir, sessionFileName, sessionRoot } from "./log/paths";
export type * from "./log/schema";
