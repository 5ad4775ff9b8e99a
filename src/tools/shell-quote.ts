// One word for the shell: text that would be read as more (spaces, quotes,
// `;`, `$(…)`, globs) goes in single quotes; a plain word goes as it is.

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:@%+-]*$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
