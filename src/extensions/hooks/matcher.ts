// A hook group's matcher, as Claude Code reads it: none, "" or "*" matches
// everything; names and `|` only (`Edit|MultiEdit|Write`) match those names
// exactly; anything else is a regular expression tested against the name
// (`Notebook.*`, `mcp__memory__.*`). Case counts.

/** Whether `matcher` selects `target` (a tool name, or how a session started); an invalid expression selects nothing. */
export function matches(matcher: string | undefined, target: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").includes(target);
  try {
    return new RegExp(matcher).test(target);
  } catch {
    return false;
  }
}

/** Why a matcher selects nothing, for the one line that says so; undefined when it is fine. */
export function matcherProblem(matcher: string | undefined): string | undefined {
  if (matcher === undefined || /^[\w|*]*$/.test(matcher)) return undefined;
  try {
    new RegExp(matcher);
    return undefined;
  } catch (error) {
    return `matcher ${JSON.stringify(matcher)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)}); it matches nothing`;
  }
}
