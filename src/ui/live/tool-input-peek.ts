// A tool call's input while it still streams: JSON text, incomplete until the
// call's block ends. The line announcing the call wants its main argument
// (bash's command, the path of read, write and edit) as soon as it arrives,
// and the input's size as it grows, long before the JSON can be parsed: a
// write of a large file streams for many seconds.
//
// InputPeek reads the text once, as it comes, and keeps the string value of
// one top-level field, decoded (escapes and all) and capped. It does not check
// the JSON: whatever it makes of a malformed input is only shown, and only
// until the call is run and shown from its validated input.

/** More of the value than this is never shown on one line. */
const MAX_VALUE = 1000;
const QUOTE_OR_BACKSLASH = /["\\]/g;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };

export class InputPeek {
  readonly #field: string | undefined;
  /** UTF-8 bytes of the input so far. */
  bytes = 0;
  /** The field's value so far (all of it once `complete`); undefined until it starts. */
  value: string | undefined;
  /** The field's value has ended. */
  complete = false;

  #depth = 0;
  #inString = false;
  #escape = false;
  #unicode: string | undefined;
  /** At the top level, the next string is a key (after `{` or `,`). */
  #expectKey = false;
  /** The string being read: a top-level key, the wanted value, or anything else. */
  #role: "key" | "value" | "other" = "other";
  #key = "";
  #lastKey = "";

  constructor(field: string | undefined) {
    this.#field = field;
  }

  push(text: string): void {
    this.bytes += Buffer.byteLength(text);
    for (let i = 0; i < text.length; i++) {
      if (this.#inString) {
        // Inside a string no one wants: straight to its next quote or backslash.
        if (this.#role === "other" && !this.#escape && this.#unicode === undefined) {
          QUOTE_OR_BACKSLASH.lastIndex = i;
          const next = QUOTE_OR_BACKSLASH.exec(text);
          if (!next) return;
          i = next.index;
        }
        this.#stringChar(text[i]!);
        continue;
      }
      const ch = text[i]!;
      if (ch === '"') {
        this.#inString = true;
        this.#key = "";
        if (this.#depth === 1 && this.#expectKey) this.#role = "key";
        else if (this.#depth === 1 && this.#lastKey === this.#field && this.value === undefined) {
          this.#role = "value";
          this.value = "";
        } else this.#role = "other";
      } else if (ch === "{" || ch === "[") {
        this.#depth++;
        this.#expectKey = this.#depth === 1 && ch === "{";
      } else if (ch === "}" || ch === "]") this.#depth--;
      else if (this.#depth === 1 && ch === ",") this.#expectKey = true;
      else if (this.#depth === 1 && ch === ":") this.#expectKey = false;
    }
  }

  #stringChar(ch: string): void {
    if (this.#unicode !== undefined) {
      this.#unicode += ch;
      if (this.#unicode.length === 4) {
        const code = Number.parseInt(this.#unicode, 16);
        this.#unicode = undefined;
        if (!Number.isNaN(code)) this.#take(String.fromCharCode(code));
      }
      return;
    }
    if (this.#escape) {
      this.#escape = false;
      if (ch === "u") this.#unicode = "";
      else this.#take(ESCAPES[ch] ?? ch);
      return;
    }
    if (ch === "\\") this.#escape = true;
    else if (ch === '"') {
      this.#inString = false;
      if (this.#role === "key") {
        this.#lastKey = this.#key;
        this.#expectKey = false;
      } else if (this.#role === "value") this.complete = true;
      // A value that was not the wanted one: the next top-level string after it is no value of that key.
      if (this.#role !== "key") this.#lastKey = "";
    } else this.#take(ch);
  }

  #take(ch: string): void {
    if (this.#role === "key" && this.#key.length < 200) this.#key += ch;
    else if (this.#role === "value" && this.value!.length < MAX_VALUE) this.value += ch;
  }
}
