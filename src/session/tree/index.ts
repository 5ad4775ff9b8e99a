export { type ActivePath, readActivePath } from "./active-path";
export { addUsage, contextAt, type ContextThen, heldEntries, type HeldEntry, usageOf } from "./context-facts";
export { forkSession } from "./fork";
export { type RewindPoint, rewindPoints } from "./rewind-points";
export { findTarget, goBackTarget, promptWords, readSessionTree, type SessionTree, type TreeNode } from "./tree";
export { readWholeLog } from "./whole-log";
