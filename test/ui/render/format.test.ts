// The display helpers shape untrusted text and make it safe to show (issue 11, item 4).
import { describe, expect, test } from "bun:test";
import { joinParts, oneLine, preview, wrapLine, wrapLines } from "../../../src/ui/render/format";

test("oneLine and preview show control characters and escape sequences, never pass them on", () => {
  expect(oneLine("rm -rf /\x1b[2K\rls\x1b]0;t\x07", 80)).toBe("rm -rf /␛[2K␍ls␛]0;t␇");
  expect(oneLine("a\r\nb\u202ec", 80)).toBe("a b\\u202ec");
  expect(preview("\x1b[2J\r\nsecond\x9b\nthird\nfourth\n", 2)).toEqual({ lines: ["␛[2J", "second\\x9b"], more: 2 });
});

test("oneLine never cuts an emoji in half", () => {
  expect(oneLine("ab🎉cd", 3)).toBe("ab…");
  expect(oneLine("a🎉cd", 3)).toBe("a…");
  expect(oneLine("🎉🎉🎉", 4)).toBe("🎉…");
});

describe("parts on a narrow terminal", () => {
  test("joinParts breaks between parts, and inside one only between its words when it is wider than a line", () => {
    const parts = ["↑ 2.3k in (1.1k cached)", "↓ 61 out", "ctx 1% of 200k"];
    expect(joinParts(parts, 100)).toBe("↑ 2.3k in (1.1k cached) · ↓ 61 out · ctx 1% of 200k");
    expect(joinParts(parts, 40)).toBe("↑ 2.3k in (1.1k cached) · ↓ 61 out\nctx 1% of 200k");
    expect(joinParts(parts, 10)).toBe("↑ 2.3k in\n(1.1k\ncached)\n↓ 61 out\nctx 1% of\n200k");
    expect(joinParts(["model gpt-5-mini (openai)", "approve: ask"], 12)).toBe("model\ngpt-5-mini\n(openai)\napprove: ask"); // never gpt-5-m|ini
  });
});

describe("awl's own lines on a narrow terminal", () => {
  test("wrap between words, a word longer than the line alone cut; indentation kept, styles carried to each row", () => {
    expect(wrapLines("Unknown command /modle: the description says what it does.\nok", 20)).toBe("Unknown command\n/modle: the\ndescription says\nwhat it does.\nok");
    expect(wrapLine("a 0123456789012345 b", 10)).toEqual(["a 01234567", "89012345 b"]); // longer than a line: the only thing cut
    const red = wrapLine("\x1b[31mthe request failed with a description\x1b[39m", 16);
    expect(red.map((row) => Bun.stripANSI(row))).toEqual(["the request", "failed with a", "description"]);
    for (const row of red) expect(row).toStartWith("\x1b[31m");
    expect(wrapLine("    indented text that wraps", 16)).toEqual(["    indented", "    text that", "    wraps"]);
    expect(wrapLines("anything", undefined)).toBe("anything");
  });
});
