// The session layer's public surface. Note: importing this module loads the
// schemas (arktype); the listing path imports ./listing directly instead.
export * from "./codec";
export * from "./convert";
export { newEntryId, newSessionId } from "./ids";
export { findSession, listSessions, shortIdLength, type SessionInfo } from "./listing";
export { FORMAT_VERSION, SessionManager, type ModelRef } from "./manager";
export { encodeCwd, sessionDir, sessionFileName, sessionRoot } from "./paths";
export type * from "./schema";
