// Issue 11, item 4: the neutraliser every piece of untrusted text goes through
// before it reaches the terminal (src/ui/render/safe-text.ts).
import { describe, expect, test } from "bun:test";
import { safeText, SafeTextStream } from "../../../src/ui/render/safe-text";

/** Anything a terminal would act on: C0 but newline and tab, DEL, C1, bidi overrides and isolates. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

const hex = (code: number) => code.toString(16).padStart(2, "0");

describe("every control character is shown, none is sent", () => {
  const C0 = Array.from({ length: 32 }, (_, code) => code).filter((code) => code !== 0x09 && code !== 0x0a);
  test.each(C0.map((code) => [hex(code), code]))("C0 0x%s is its control picture", (_, code) => {
    const shown = safeText(`a${String.fromCharCode(code)}b`);
    expect(shown).toBe(`a${String.fromCharCode(0x2400 + code)}b`);
    expect(shown).not.toMatch(CONTROL);
  });

  test("the pictures of the ones that matter most", () => {
    expect(safeText("\x1b")).toBe("␛");
    expect(safeText("\x07")).toBe("␇");
    expect(safeText("\x08")).toBe("␈");
    expect(safeText("\x00")).toBe("␀");
    expect(safeText("\x0e\x0f")).toBe("␎␏"); // shift out/in would switch the terminal's character set
    expect(safeText("\x7f")).toBe("␡");
  });

  const C1 = Array.from({ length: 32 }, (_, i) => 0x80 + i);
  test.each(C1.map((code) => [hex(code), code]))("C1 U+00%s is shown as \\x%s", (h, code) => {
    const shown = safeText(`a${String.fromCharCode(code)}b`);
    expect(shown).toBe(`a\\x${h}b`);
    expect(shown).not.toMatch(CONTROL);
  });

  const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  test.each(BIDI.map((code) => [code.toString(16), code]))("bidi U+%s is shown as \\u%s", (h, code) => {
    expect(safeText(`invoice${String.fromCharCode(code)}fdp.exe`)).toBe(`invoice\\u${h}fdp.exe`);
  });
});

describe("escape sequences are shown whole and inert", () => {
  const table: [string, string, string][] = [
    ["CSI erase screen", "\x1b[2J", "␛[2J"],
    ["CSI cursor home + erase line", "\x1b[H\x1b[K", "␛[H␛[K"],
    ["CSI SGR (colour from a tool)", "\x1b[1;31mred\x1b[0m", "␛[1;31mred␛[0m"],
    ["CSI private mode (alternate screen)", "\x1b[?1049h", "␛[?1049h"],
    ["OSC 0 title, BEL-terminated", "\x1b]0;pwned\x07", "␛]0;pwned␇"],
    ["OSC 2 title, ST-terminated", "\x1b]2;pwned\x1b\\", "␛]2;pwned␛\\"],
    ["OSC 8 hyperlink", "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "␛]8;;https://evil.example/␛\\click␛]8;;␛\\"],
    ["OSC 52 clipboard write", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"],
    ["DCS", "\x1bP1$qm\x1b\\", "␛P1$qm␛\\"],
    ["APC", "\x1b_Gf=100;AAAA\x1b\\", "␛_Gf=100;AAAA␛\\"],
    ["PM", "\x1b^private\x1b\\", "␛^private␛\\"],
    ["SOS", "\x1bXstring\x1b\\", "␛Xstring␛\\"],
    ["RIS full reset", "\x1bc", "␛c"],
    ["DEC line drawing charset", "\x1b(0lqk\x1b(B", "␛(0lqk␛(B"],
    ["save/restore cursor", "\x1b7x\x1b8", "␛7x␛8"],
    ["8-bit CSI", "\x9b2J", "\\x9b2J"],
    ["8-bit OSC with 8-bit ST", "\x9d0;pwned\x9c", "\\x9d0;pwned\\x9c"],
    ["8-bit DCS", "\x90q\x9c", "\\x90q\\x9c"],
    ["8-bit APC, PM, SOS", "\x9fa\x9c\x9eb\x9c\x98c\x9c", "\\x9fa\\x9c\\x9eb\\x9c\\x98c\\x9c"],
    ["single shifts", "\x1bN\x1bO\x8e\x8f", "␛N␛O\\x8e\\x8f"],
    ["NEL", "a\x85b", "a\\x85b"],
    ["a lone ESC at the end", "text\x1b", "text␛"],
  ];
  test.each(table)("%s", (_, raw, shown) => {
    expect(safeText(raw)).toBe(shown);
    expect(safeText(raw)).not.toMatch(CONTROL);
  });
});

describe("carriage return", () => {
  test("CR LF is a line ending; a lone CR, which would overwrite the line, is shown as ␍", () => {
    expect(safeText("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    expect(safeText("rm -rf ~\rls")).toBe("rm -rf ~␍ls");
    expect(safeText("10%\r50%\r100%\n")).toBe("10%␍50%␍100%\n");
    expect(safeText("a\r\r\nb")).toBe("a␍\nb");
    expect(safeText("\r")).toBe("␍");
  });
});

describe("what is text passes untouched", () => {
  const table: [string, string][] = [
    ["ASCII", "Hello, world! ~`{}[]<>|\\^_"],
    ["newline and tab", "a\tb\nc\t\td\n\n"],
    ["accents and other scripts", "héllo wörld — Ελληνικά русский עברית العربية हिन्दी"],
    ["wide characters", "你好，世界 日本語 한국어 ＡＢＣ"],
    ["combining marks", "e\u0301 a\u0308 Z\u0351\u0327\u0340"],
    ["emoji, ZWJ sequences, flags, skin tones, VS16", "🎉 👩‍👩‍👧 🇫🇷 👍🏽 ❤️ 1️⃣"],
    ["the pictures themselves, and backslash escapes as text", "␛[2J \\x1b \\u202e"],
    ["NBSP, soft hyphen, LRM/RLM marks, line separator", "a\u00a0b\u00adc\u200ed\u200fe\u2028f"],
  ];
  test.each(table)("%s", (_, text) => {
    expect(safeText(text)).toBe(text);
  });

  test("unchanged text is returned as is, and safeText is idempotent", () => {
    const text = "plain answer\n".repeat(1000);
    expect(safeText(text)).toBe(text);
    const hostile = "\x1b]0;t\x07\x9b2J\u202e\r\x00";
    expect(safeText(safeText(hostile))).toBe(safeText(hostile));
  });
});

describe("streamed: piece by piece, the same as the whole", () => {
  const whole = "a\x1b]0;title\x07b\r\nc\rd\x9b2J\u202ee\r\n\r\r";
  test("split at every place, in two and in single characters", () => {
    const expected = safeText(whole) + ""; // "…\n␍" : a CR at the very end is a lone one
    for (let cut = 0; cut <= whole.length; cut++) {
      const stream = new SafeTextStream();
      const shown = stream.push(whole.slice(0, cut)) + stream.push(whole.slice(cut)) + stream.end();
      expect({ cut, shown }).toEqual({ cut, shown: expected });
    }
    const stream = new SafeTextStream();
    expect([...whole].map((ch) => stream.push(ch)).join("") + stream.end()).toBe(expected);
  });

  test("a CR at the end of a piece waits for the next", () => {
    const stream = new SafeTextStream();
    expect(stream.push("line\r")).toBe("line");
    expect(stream.push("\nnext\r")).toBe("\nnext");
    expect(stream.push("x")).toBe("␍x");
    expect(stream.push("\r")).toBe("");
    expect(stream.end()).toBe("␍");
    expect(stream.end()).toBe("");
  });
});
