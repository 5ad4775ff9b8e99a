// Raw terminal bytes -> key events. A read() from a TTY can end anywhere: in the
// middle of an escape sequence, of a UTF-8 character, or of a bracketed paste,
// so the decoder keeps whatever is incomplete until the next chunk arrives.

export type KeyName =
  | "enter" | "tab" | "backspace" | "delete" | "escape" | "insert"
  | "up" | "down" | "left" | "right" | "home" | "end" | "pageup" | "pagedown"
  /** A letter or symbol pressed with Ctrl and/or Alt ("a", "w", "b", ...). */
  | (string & {});

export type Key =
  /** Printable text typed (a run of characters, never control characters). */
  | { type: "text"; text: string }
  /** The whole content of a bracketed paste, newlines as "\n". */
  | { type: "paste"; text: string }
  | { type: "key"; name: KeyName; ctrl: boolean; alt: boolean; shift: boolean };

const ESC = "\x1b";
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

const key = (name: KeyName, mods: Partial<{ ctrl: boolean; alt: boolean; shift: boolean }> = {}): Key => ({
  type: "key",
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: mods.shift ?? false,
});

/** xterm encodes modifiers as 1 + bitmask (1 shift, 2 alt, 4 ctrl; 8 meta counts as alt). */
function modifiers(param: string | undefined): { ctrl: boolean; alt: boolean; shift: boolean } {
  const bits = Math.max(0, (Number(param) || 1) - 1);
  return { shift: (bits & 1) !== 0, alt: (bits & 10) !== 0, ctrl: (bits & 4) !== 0 };
}

const LETTER_KEYS: Record<string, KeyName> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" };
const TILDE_KEYS: Record<string, KeyName> = { "1": "home", "7": "home", "2": "insert", "3": "delete", "4": "end", "8": "end", "5": "pageup", "6": "pagedown" };

/** A key given by its Unicode code point (kitty's CSI u, xterm's modifyOtherKeys). */
function fromCodePoint(code: number, mods: { ctrl: boolean; alt: boolean; shift: boolean }): Key {
  if (code === 13) return key("enter", mods);
  if (code === 9) return key("tab", mods);
  if (code === 127 || code === 8) return key("backspace", mods);
  if (code === 27) return key("escape", mods);
  const char = String.fromCodePoint(code);
  if (!mods.ctrl && !mods.alt) return { type: "text", text: char };
  return key(char.toLowerCase(), mods);
}

/** Decodes one complete CSI sequence body (the bytes between "ESC [" and the final byte included). */
function decodeCsi(body: string): Key {
  const final = body.at(-1)!;
  const params = body.slice(0, -1).split(";");
  if (final in LETTER_KEYS) return key(LETTER_KEYS[final]!, modifiers(params[1]));
  if (final === "Z") return key("tab", { shift: true });
  if (final === "u") return fromCodePoint(Number(params[0]), modifiers(params[1]));
  if (final === "~") {
    if (params[0] === "27") return fromCodePoint(Number(params[2]), modifiers(params[1]));
    const name = TILDE_KEYS[params[0] ?? ""];
    if (name) return key(name, modifiers(params[1]));
  }
  return key("unknown");
}

/** A single control or printable character outside any escape sequence. */
function decodeChar(char: string): Key {
  if (char === "\r") return key("enter");
  if (char === "\t") return key("tab");
  if (char === "\x7f" || char === "\b") return key("backspace");
  if (char === ESC) return key("escape");
  const code = char.charCodeAt(0);
  if (code === 0) return key("space", { ctrl: true });
  // Ctrl+letter arrives as 1..26; "\n" is Ctrl+J, distinct from Enter ("\r") in raw mode.
  if (code < 27) return key(String.fromCharCode(code + 96), { ctrl: true });
  if (code < 32) return key(String.fromCharCode(code + 64), { ctrl: true });
  return { type: "text", text: char };
}

/** Terminals send pasted line breaks as CR; control characters other than tab would corrupt the display. */
function cleanPaste(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

const isPrintable = (char: string) => char >= " " && char !== "\x7f";

export class KeyDecoder {
  #utf8 = new TextDecoder("utf-8");
  #buffer = "";
  #paste: string | undefined;

  /** True while an unfinished escape sequence is held back, waiting for its next bytes (or for flush). */
  get pending(): boolean {
    return this.#paste === undefined && this.#buffer !== "";
  }

  push(chunk: Uint8Array | string): Key[] {
    this.#buffer += typeof chunk === "string" ? chunk : this.#utf8.decode(chunk, { stream: true });
    return this.#drain(false);
  }

  /**
   * Called when no further bytes followed a lone ESC for a while: it was the
   * Escape key, not the start of a sequence. A paste in progress stays open,
   * however long the gap: delivering half of it would turn the rest into keys,
   * its newlines into Enter.
   */
  flush(): Key[] {
    return this.#drain(true);
  }

  #drain(final: boolean): Key[] {
    const keys: Key[] = [];
    for (;;) {
      if (this.#paste !== undefined) {
        const end = this.#buffer.indexOf(PASTE_END);
        if (end === -1) {
          // Keep a possible partial end marker in the buffer; the rest is paste content.
          const keep = partialSuffix(this.#buffer, PASTE_END);
          this.#paste += this.#buffer.slice(0, this.#buffer.length - keep);
          this.#buffer = this.#buffer.slice(this.#buffer.length - keep);
          return keys;
        }
        keys.push({ type: "paste", text: cleanPaste(this.#paste + this.#buffer.slice(0, end)) });
        this.#paste = undefined;
        this.#buffer = this.#buffer.slice(end + PASTE_END.length);
        continue;
      }
      if (this.#buffer === "") return keys;
      const consumed = this.#next(this.#buffer, keys, final);
      if (consumed === 0) return keys;
      this.#buffer = this.#buffer.slice(consumed);
    }
  }

  /** Decodes the key at the start of buf; returns how many chars it used (0: wait for more). */
  #next(buf: string, keys: Key[], final: boolean): number {
    const first = buf[0]!;
    if (first !== ESC) {
      if (!isPrintable(first)) {
        keys.push(decodeChar(first));
        return 1;
      }
      // A run of printable characters becomes one text event (fast typing, unbracketed paste).
      let end = 1;
      while (end < buf.length && isPrintable(buf[end]!)) end++;
      const last = keys.at(-1);
      if (last?.type === "text") last.text += buf.slice(0, end);
      else keys.push({ type: "text", text: buf.slice(0, end) });
      return end;
    }
    if (buf.length === 1) {
      if (!final) return 0;
      keys.push(key("escape"));
      return 1;
    }
    const second = buf[1]!;
    if (second === "[" || second === "O") {
      const match = (second === "[" ? /^\x1b\[([\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e])/ : /^\x1bO([\x40-\x7e])/).exec(buf);
      if (!match) {
        // Incomplete: wait, unless it can never complete (a byte outside the grammar).
        const rest = buf.slice(2);
        if (!final && /^[\x20-\x3f]*$/.test(rest)) return 0;
        keys.push(key(second, { alt: true }));
        return 2;
      }
      const seq = match[0];
      // A stray end marker is dropped. SS3 (ESC O A, sent in application cursor
      // mode) carries only a final letter, which decodeCsi reads the same way.
      if (seq === PASTE_START) this.#paste = "";
      else if (seq !== PASTE_END) keys.push(decodeCsi(match[1]!));
      return seq.length;
    }
    if (second === ESC) {
      // ESC ESC [ A: some terminals send Alt+arrow as ESC before the plain sequence.
      const inner: Key[] = [];
      const used = this.#next(buf.slice(1), inner, final);
      if (used === 0) return 0;
      for (const k of inner) keys.push(k.type === "key" ? { ...k, alt: true } : k);
      return 1 + used;
    }
    // ESC + character: the Alt (Meta) modifier.
    const codePoint = buf.codePointAt(1)!;
    const char = String.fromCodePoint(codePoint);
    const plain = decodeChar(char);
    keys.push(plain.type === "key" ? { ...plain, alt: true } : key(char, { alt: true }));
    return 1 + char.length;
  }
}

/** Length of the longest suffix of text that is a proper prefix of marker. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (marker.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
