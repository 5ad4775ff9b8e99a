// One error type for "this is the user's problem, tell them this": main turns
// it into one line on stderr and its exit code. Anything else is a bug.

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** `awl -p --max-turns N` stopped the turn (awl -p --resume continues it). */
export const EXIT_MAX_TURNS = 4;

export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
    this.name = "UserError";
  }
}

export class UsageError extends UserError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = "UsageError";
  }
}
