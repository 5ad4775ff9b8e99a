// An answer cut off by the person (Ctrl+C, Esc, a signal that stops awl) is
// marked `"interrupted": true` beside its `stopReason` (docs/session-format.md,
// "What awl writes when things go wrong"): data, not the words shown. Lines
// written before the field existed say it only by their `errorMessage`, the
// sentence awl wrote then, so that sentence is how those are recognised.
import type { DiskMessage } from "./schema";

/** The errorMessage of an interrupted answer (what the person and the model are told). */
export const INTERRUPTED_BY_USER = "Interrupted by the user.";

/** Whether an assistant message was cut off by the person: its field, or for a line written before it, its sentence. */
export function isInterrupted(m: Pick<DiskMessage, "interrupted" | "errorMessage">): boolean {
  return m.interrupted ?? m.errorMessage === INTERRUPTED_BY_USER;
}
