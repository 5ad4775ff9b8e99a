// The provider keys awl holds are the one secret it knows for sure: they must
// never reach a tool, and never leave through one. Their values are scrubbed
// from every tool's output in one place (runTool), before the output is shown,
// saved in the session or sent to a model.

/**
 * Every variable awl reads an API key from (src/providers/index.ts).
 * test/tools/secrets.test.ts fails if the providers read one not listed here.
 */
export const PROVIDER_KEY_VARIABLES: readonly string[] = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"];

/**
 * Shorter values are not scrubbed: a key that short would also match ordinary
 * words and numbers, and mangle the output more than it protects.
 */
export const MIN_SCRUBBED_LENGTH = 8;

/** The provider keys set in `env`, by variable name: what runTool scrubs (ToolContext.secrets). */
export function providerSecrets(env: Record<string, string | undefined>): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const name of PROVIDER_KEY_VARIABLES) {
    const value = env[name];
    if (value) secrets[name] = value;
  }
  return secrets;
}

/** `text` with every occurrence of each secret replaced by `[redacted NAME]`. */
export function scrub(text: string, secrets: Readonly<Record<string, string>> | undefined): string {
  if (!secrets) return text;
  // Longest first, so a key that contains another is replaced whole.
  const entries = Object.entries(secrets)
    .filter(([, value]) => value.length >= MIN_SCRUBBED_LENGTH)
    .sort(([, a], [, b]) => b.length - a.length);
  for (const [name, value] of entries) {
    if (text.includes(value)) text = text.replaceAll(value, `[redacted ${name}]`);
  }
  return text;
}
