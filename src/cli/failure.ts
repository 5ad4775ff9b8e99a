// What an error that ends a command says, and the exit code it gives: main
// writes it to stderr, and `awl -p --json` puts the same words in its result
// line. A UserError is the person's to fix, in its own words; anything else is
// a bug, said as one.

import { UserError } from "../errors";
import { safeText } from "../ui/render/safe-text";

export interface Failure {
  /** The line for stderr, after "awl: " (made safe: a message may quote what an API, a model or a session file said). */
  message: string;
  exitCode: number;
}

export function failureOf(error: unknown): Failure {
  if (error instanceof UserError) return { message: safeText(error.message), exitCode: error.exitCode };
  const message = error instanceof Error ? error.message : String(error);
  return { message: `internal error: ${safeText(message)} (please report this with the command you ran)`, exitCode: 1 };
}
