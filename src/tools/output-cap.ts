// The one place that decides how much tool output reaches the model. bash keeps
// the tail (the end of a build log is where the error is); read keeps the head
// from an offset. Both use the same limits so the model learns one rule.

export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;

const encoder = new TextEncoder();

export function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Collects streamed text and keeps only a rolling tail, so memory stays
 * bounded however much a command prints; it still counts every line so the
 * truncation note can say how much was dropped.
 */
export class TailBuffer {
  #tail = "";
  #newlines = 0;
  #endsWithNewline = true;
  #dropped = false;

  push(text: string): void {
    if (text === "") return;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.#newlines++;
    this.#endsWithNewline = text.endsWith("\n");
    this.#tail += text;
    // Every UTF-16 unit is at least one UTF-8 byte, so MAX_BYTES units always
    // cover the final MAX_BYTES bytes; trimming only at twice that keeps the
    // slicing rare.
    if (this.#tail.length > 2 * MAX_BYTES) {
      this.#tail = this.#tail.slice(-MAX_BYTES);
      this.#dropped = true;
    }
  }

  /** The capped tail, preceded by a note when anything was left out. */
  text(): string {
    const totalLines = this.#newlines + (this.#endsWithNewline ? 0 : 1);
    let body = this.#endsWithNewline ? this.#tail.slice(0, -1) : this.#tail;
    if (this.#dropped) body = fromNextLine(body);
    let kept = body.split("\n").slice(-MAX_LINES).join("\n");
    let cutByBytes = false;
    if (byteLength(kept) > MAX_BYTES) {
      kept = lastBytes(kept, MAX_BYTES);
      cutByBytes = true;
    }
    const keptLines = totalLines === 0 ? 0 : kept.split("\n").length;
    // A rolling trim keeps at least MAX_BYTES, so if it left fewer than
    // MAX_LINES lines, the byte limit is what bounded the output.
    if (this.#dropped && keptLines < MAX_LINES) cutByBytes = true;
    if (keptLines >= totalLines && !cutByBytes) return kept;
    const limit = cutByBytes ? ` (${MAX_BYTES / 1024} KB limit)` : "";
    return `[output truncated: showing the last ${keptLines} of ${totalLines} lines${limit}]\n${kept}`;
  }
}

/**
 * Collects lines from the start until either limit is reached; a first line
 * that alone exceeds the byte limit is cut rather than leaving nothing to show.
 */
export class HeadBuffer {
  readonly lines: string[] = [];
  #bytes = 0;
  /** True once a line was refused or cut: nothing more will be taken. */
  full = false;
  /** True when the only line was longer than the byte limit and got cut. */
  cut = false;

  constructor(private readonly maxLines = MAX_LINES) {}

  /** Returns false when the line did not fit (nothing more will). */
  push(line: string): boolean {
    if (this.full) return false;
    const size = byteLength(line) + 1;
    if (this.lines.length >= this.maxLines || this.#bytes + size > MAX_BYTES) {
      if (this.lines.length === 0) {
        this.lines.push(firstBytes(line, MAX_BYTES));
        this.cut = true;
      }
      this.full = true;
      return false;
    }
    this.lines.push(line);
    this.#bytes += size;
    return true;
  }
}

/** The head of `text` as tool output keeps it (its first MAX_LINES lines within MAX_BYTES, a character never split), or undefined when all of it fits. */
export function headOf(text: string): string[] | undefined {
  const head = new HeadBuffer();
  for (const line of text.split("\n")) if (!head.push(line)) break;
  return head.full ? head.lines : undefined;
}

/** Drops a leading fragment, unless the text is one single fragment. */
function fromNextLine(text: string): string {
  const newline = text.indexOf("\n");
  return newline === -1 ? text : text.slice(newline + 1);
}

/** The start of `text` within `max` UTF-8 bytes, never splitting a character. */
function firstBytes(text: string, max: number): string {
  const bytes = encoder.encode(text);
  let end = Math.min(max, bytes.length);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** The end of `text` within `max` UTF-8 bytes, starting at a line when one fits. */
function lastBytes(text: string, max: number): string {
  const bytes = encoder.encode(text);
  let start = bytes.length - max;
  // Step past UTF-8 continuation bytes so no character is split.
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return fromNextLine(new TextDecoder().decode(bytes.subarray(start)));
}
