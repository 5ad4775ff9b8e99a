// The session layer's public surface. Importing it does not load arktype: the
// codec loads the schemas on first use (see codec.ts).
export * from "./log";
export { addUsage, contextAt, heldEntries, usageOf, type ContextThen, type HeldEntry } from "./tree";
export { describeSessions, findSession, listSessions, sessionIdsByName, shortIdLength, type SessionInfo, type SessionMatch } from "./store";
export { BlobStore, blobDir, sha256 } from "./checkpoints";
