// The session layer's public surface. Importing it does not load arktype: the
// codec loads the schemas on first use (see codec.ts).
export * from "./codec";
export * from "./convert";
export { CUT_KEEP_BYTES, cutMiddle, isPrompt, summaryMessage, type ContextSize, type SessionContext } from "./context";
export { cwdNote, isCwdNote, isSaidText, toldDirectory } from "./cwd-note";
export { addUsage, contextAt, heldEntries, usageOf, type ContextThen, type HeldEntry } from "./context-facts";
export { newEntryId, newSessionId } from "./ids";
export { describeSessions, findSession, listSessions, sessionIdsByName, shortIdLength, type SessionInfo, type SessionMatch } from "./listing";
export { BlobStore, blobDir, sha256 } from "./blob-store";
export { FORMAT_VERSION, SessionManager, type BashEffectsFields, type CompactionFields, type FileChangeFields, type ModelRef } from "./manager";
export { encodeCwd, idFromFileName, sessionDir, sessionFileName, sessionRoot } from "./paths";
export type * from "./schema";
