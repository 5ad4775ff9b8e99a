import { describe, expect, test } from "bun:test";
import { type Key, KeyDecoder } from "../../../src/ui/input/keys";

const k = (name: string, mods: Partial<{ ctrl: boolean; alt: boolean; shift: boolean }> = {}): Key => ({
  type: "key",
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: mods.shift ?? false,
});
const text = (t: string): Key => ({ type: "text", text: t });

/** Feeds the chunks one by one (as separate reads from the terminal) and collects every key. */
function decode(...chunks: (string | Uint8Array)[]): Key[] {
  const decoder = new KeyDecoder();
  return chunks.flatMap((c) => decoder.push(c));
}

describe("key decoder", () => {
  test("printable text, including non-ASCII and wide characters, arrives as text", () => {
    expect(decode("héllo 你好 👍🏽")).toEqual([text("héllo 你好 👍🏽")]);
  });

  test("control characters become Ctrl+letter; Enter is CR and Ctrl+J is LF", () => {
    expect(decode("\x01\x05\x15\x0b\x17\x03\x04\x0c")).toEqual(
      ["a", "e", "u", "k", "w", "c", "d", "l"].map((n) => k(n, { ctrl: true })),
    );
    expect(decode("\r")).toEqual([k("enter")]);
    expect(decode("\n")).toEqual([k("j", { ctrl: true })]);
    expect(decode("\x7f")).toEqual([k("backspace")]);
    expect(decode("\b")).toEqual([k("backspace")]);
    expect(decode("\t")).toEqual([k("tab")]);
  });

  test("CSI and SS3 cursor keys, Home/End/Delete in their several spellings", () => {
    expect(decode("\x1b[A\x1b[B\x1b[C\x1b[D")).toEqual([k("up"), k("down"), k("right"), k("left")]);
    expect(decode("\x1bOA\x1bOD\x1bOH\x1bOF")).toEqual([k("up"), k("left"), k("home"), k("end")]);
    expect(decode("\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[7~\x1b[8~")).toEqual([k("home"), k("end"), k("home"), k("end"), k("home"), k("end")]);
    expect(decode("\x1b[3~\x1b[2~\x1b[5~\x1b[6~")).toEqual([k("delete"), k("insert"), k("pageup"), k("pagedown")]);
  });

  test("modifier parameters: Ctrl+Left, Alt+Right, Shift+Up, Ctrl+Delete", () => {
    expect(decode("\x1b[1;5D\x1b[1;3C\x1b[1;2A\x1b[3;5~")).toEqual([
      k("left", { ctrl: true }),
      k("right", { alt: true }),
      k("up", { shift: true }),
      k("delete", { ctrl: true }),
    ]);
  });

  test("ESC-prefixed keys are Alt keys: Alt+B, Alt+F, Alt+Enter, Alt+Backspace, Alt+arrow", () => {
    expect(decode("\x1bb\x1bf\x1b\r\x1b\x7f")).toEqual([
      k("b", { alt: true }),
      k("f", { alt: true }),
      k("enter", { alt: true }),
      k("backspace", { alt: true }),
    ]);
    expect(decode("\x1b\x1b[D")).toEqual([k("left", { alt: true })]);
  });

  test("Shift+Enter in the kitty and xterm modifyOtherKeys encodings", () => {
    expect(decode("\x1b[13;2u")).toEqual([k("enter", { shift: true })]);
    expect(decode("\x1b[27;2;13~")).toEqual([k("enter", { shift: true })]);
    expect(decode("\x1b[97u")).toEqual([text("a")]);
  });

  test("an escape sequence split across reads is still one key", () => {
    expect(decode("\x1b", "[", "1;5", "D")).toEqual([k("left", { ctrl: true })]);
    expect(decode("ab\x1b", "[A")).toEqual([text("ab"), k("up")]);
    expect(decode("\x1b", "b")).toEqual([k("b", { alt: true })]);
  });

  test("a UTF-8 character split across reads is decoded whole", () => {
    const bytes = new TextEncoder().encode("a你👍b");
    const chunks = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(decode(...chunks).map((key) => (key.type === "text" ? key.text : "?")).join("")).toBe("a你👍b");
  });

  test("a lone ESC waits for more, and is the Escape key once flushed", () => {
    const decoder = new KeyDecoder();
    expect(decoder.push("\x1b")).toEqual([]);
    expect(decoder.pending).toBe(true);
    expect(decoder.flush()).toEqual([k("escape")]);
    expect(decoder.pending).toBe(false);
  });

  test("a paste stays open across a pause (flush), so its newlines never become Enter", () => {
    const decoder = new KeyDecoder();
    expect(decoder.push("\x1b[200~one\r")).toEqual([]);
    expect(decoder.pending).toBe(false);
    expect(decoder.flush()).toEqual([]);
    expect(decoder.push("two\x1b[201~")).toEqual([{ type: "paste", text: "one\ntwo" }]);
  });

  test("bracketed paste is one event, newlines kept (CR and CRLF become LF), never Enter", () => {
    expect(decode("\x1b[200~line one\r\nline two\rthree\x1b[201~")).toEqual([{ type: "paste", text: "line one\nline two\nthree" }]);
  });

  test("a paste split anywhere, even inside its end marker, is reassembled", () => {
    const whole = "x\x1b[200~a\rb\x1b[A c\x1b[201~y";
    for (let cut = 1; cut < whole.length; cut++) {
      expect(decode(whole.slice(0, cut), whole.slice(cut))).toEqual([text("x"), { type: "paste", text: "a\nb[A c" }, text("y")]);
    }
  });

  test("bytes between paste markers are not interpreted as keys (no Ctrl+C inside a paste)", () => {
    expect(decode("\x1b[200~\x03\x04\t\x1b[201~")).toEqual([{ type: "paste", text: "\t" }]);
  });

  test("an unknown sequence is consumed as one unknown key, not typed as text", () => {
    expect(decode("\x1b[15~a")).toEqual([k("unknown"), text("a")]);
  });
});
