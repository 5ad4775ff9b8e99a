// The provider keys awl holds are the one secret it knows for sure: they must
// never reach a tool, and never leave through one. Their values, handed to the
// tools by the agent (ToolContext.secrets: the tools know no provider), are
// scrubbed from every tool's output in one place (runCall), before the output
// is shown, saved in the session or sent to a model.

/**
 * Shorter values are not scrubbed: a key that short would also match ordinary
 * words and numbers, and mangle the output more than it protects.
 */
export const MIN_SCRUBBED_LENGTH = 8;

/**
 * Keys at least this long are also scrubbed in pieces: every run of
 * MIN_SCRUBBED_LENGTH or more characters of the key, wherever it stands (a key
 * printed eight characters a line, `grep -o .{8}`). Every real provider key is
 * far longer; a short value (a test's "test-api-key-1") would have its
 * pieces match ordinary words.
 */
export const MIN_PIECED_LENGTH = 32;

/**
 * `text` with every occurrence of each secret, and of every piece of one (see
 * MIN_PIECED_LENGTH), replaced by `[redacted NAME]`.
 */
export function scrub(text: string, secrets: Readonly<Record<string, string>> | undefined): string {
  if (!secrets) return text;
  // Longest first, so a key that contains another is replaced whole.
  const entries = Object.entries(secrets)
    .filter(([, value]) => value.length >= MIN_SCRUBBED_LENGTH)
    .sort(([, a], [, b]) => b.length - a.length);
  for (const [name, value] of entries) {
    if (text.includes(value)) text = text.replaceAll(value, `[redacted ${name}]`);
    if (value.length >= MIN_PIECED_LENGTH) text = scrubPieces(text, value, `[redacted ${name}]`);
  }
  return text;
}

/** `text` with each longest run of MIN_SCRUBBED_LENGTH or more characters that is part of `value` replaced by `mark`. */
function scrubPieces(text: string, value: string, mark: string): string {
  const grams = new Set<string>();
  for (let i = 0; i + MIN_SCRUBBED_LENGTH <= value.length; i++) grams.add(value.slice(i, i + MIN_SCRUBBED_LENGTH));
  // A piece lies within a stretch of the key's own characters: only stretches long enough are searched (most words are not).
  const alphabet = [...new Set(value)].map((ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`).join("");
  const stretches = new RegExp(`[${alphabet}]{${MIN_SCRUBBED_LENGTH},}`, "gu");
  return text.replace(stretches, (stretch) => {
    let out = "";
    let from = 0;
    for (let i = 0; i + MIN_SCRUBBED_LENGTH <= stretch.length; ) {
      if (!grams.has(stretch.slice(i, i + MIN_SCRUBBED_LENGTH))) {
        i++;
        continue;
      }
      let end = i + MIN_SCRUBBED_LENGTH;
      while (end < stretch.length && value.includes(stretch.slice(i, end + 1))) end++;
      out += stretch.slice(from, i) + mark;
      from = i = end;
    }
    return from === 0 ? stretch : out + stretch.slice(from);
  });
}

/** The length of the longest end of `text` that is part of one of `secrets` (a piece still arriving). */
export function secretPartAtEnd(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const value of secrets) {
    const pieced = value.length >= MIN_PIECED_LENGTH;
    for (let n = Math.min(value.length - 1, text.length); n > longest; n--) {
      // A piece of a long key may start anywhere in it; a short key is only ever replaced whole, from its start.
      if (pieced ? value.includes(text.slice(-n)) : n >= MIN_SCRUBBED_LENGTH && value.startsWith(text.slice(-n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
