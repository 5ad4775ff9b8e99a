// Untrusted text never drives the terminal. What a model writes (answers,
// thinking, tool names and inputs), what a tool prints, an API's error message
// and anything read back from a session file are shown through `safeText`, so
// that no byte of them is a control the terminal would act on: a model's OSC 0
// set the window title, a tool's `printf '\033[2J'` cleared the screen, and
// both came back on every `--resume`.
//
// The rules, one character at a time (so a sequence split across stream
// deltas is neutralised just the same):
//   - newline and tab pass;
//   - CR LF becomes LF (a line ending, nothing to show); a lone CR, which
//     would send the cursor back to overwrite the line, is shown as ␍;
//   - every other C0 control and DEL becomes its Unicode control picture, one
//     cell wide like the character it stands for: ESC ␛, BEL ␇, BS ␈, NUL ␀,
//     DEL ␡. An escape sequence thus stays readable and inert: `\x1b]0;hi\x07`
//     is shown as `␛]0;hi␇`, `\x1b[2J` as `␛[2J`;
//   - the C1 controls U+0080-U+009F (8-bit CSI, OSC, DCS, ST, NEL ...), which
//     have no picture, are shown as `\x9b`;
//   - the bidi overrides, embeddings and isolates U+202A-U+202E and
//     U+2066-U+2069, which reorder what follows them on screen, are shown as
//     `\u202e`.
// Everything else (wide characters, emoji, combining marks, other scripts)
// passes untouched. The session file keeps the original text: only what is
// shown changes. awl's own styling is applied AFTER this, to the safe text.
//
// Apply it before any other rendering of untrusted text, too: a markdown
// renderer such as `Bun.markdown.ansi` silently drops escape sequences (so the
// person never sees them) and passes U+202E through, so neutralise first and
// render the result. A renderer that emits hyperlinks (OSC 8) must do so only
// for http(s) URLs, and only with URL and label that went through `safeText`.

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function shown(match: string): string {
  if (match === "\r\n") return "\n";
  const code = match.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀ … ␟ (CR is ␍, ESC is ␛)
  if (code === 0x7f) return "\u2421"; // ␡
  if (code <= 0x9f) return `\\x${code.toString(16)}`;
  return `\\u${code.toString(16)}`;
}

/** Untrusted text as it may be shown on a terminal: no control reaches it (see the rules above). */
export function safeText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, shown) : text;
}

/**
 * `safeText` for text that arrives in pieces (a streamed answer): the same
 * result as `safeText` of the whole, piece by piece. Only a CR at the end of a
 * piece is held back, until the next piece says whether an LF follows it.
 */
export class SafeTextStream {
  #heldCR = false;

  push(piece: string): string {
    let text = this.#heldCR ? `\r${piece}` : piece;
    this.#heldCR = text.endsWith("\r");
    if (this.#heldCR) text = text.slice(0, -1);
    return safeText(text);
  }

  /** The end of the text: a CR still held was a lone one. */
  end(): string {
    const rest = this.#heldCR ? "\u240d" : "";
    this.#heldCR = false;
    return rest;
  }
}
