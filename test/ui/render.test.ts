// Issue 11, item 4: what the live renderer writes for a turn whose model, tools
// and API send control characters and escape sequences: they are shown, the
// terminal never receives them; awl's own colours are untouched.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/agent/events";
import { TurnRenderer } from "../../src/ui/render";
import { colored, CONTROL, plain, unstyled } from "../support/terminal-text";

function render(events: AgentEvent[], c = plain, isTTY = false): string {
  let written = "";
  const renderer = new TurnRenderer({ write: (s: string) => (written += s), isTTY, columns: 100 }, c);
  for (const event of events) renderer.handle(event);
  renderer.abandon();
  return written;
}

const block = (index: number, type: "text" | "thinking", pieces: string[]): AgentEvent[] => [
  { type: "blockStart", index, block: type === "text" ? { type, text: "" } : { type, thinking: "" } },
  ...pieces.map((text): AgentEvent => ({ type: "delta", index, text })),
  { type: "blockStop", index },
];
const end = (extra: Partial<Extract<AgentEvent, { type: "end" }>> = {}): AgentEvent => ({ type: "end", stopReason: "stop", ...extra }) as AgentEvent;

const HOSTILE_TURN: AgentEvent[] = [
  { type: "requestStart", provider: "anthropic", model: "claude\x1b]0;model-id\x07" },
  ...block(0, "thinking", ["I will \x1b[2", "J clear", " it\u202e"]),
  ...block(1, "text", ["Done.\x1b]0;pw", "ned\x07 ok\x1b", "[2J\x9b?1049h"]),
  end({ stopReason: "toolUse" }),
  { type: "toolStart", id: "t1", name: "bash", summary: "printf '\x1b[2J'" },
  { type: "toolEnd", id: "t1", name: "bash", output: { content: "\x1b[2J\x1b]0;tool-title\x07cleared\r\nexit code: 0", isError: false } },
  { type: "toolStart", id: "t2", name: "no\x1b]0;such\x07tool", summary: "" },
  { type: "toolEnd", id: "t2", name: "no\x1b]0;such\x07tool", output: { content: "unknown tool no\x1b]0;such\x07tool", isError: true } },
  { type: "retry", attempt: 0, delayMs: 10, reason: "overloaded: \x1b[31mbusy\x1b[0m" },
  end({ stopReason: "error", errorMessage: "API error 400: \x1b]0;api\x07bad\u2066request\u2069" }),
];

describe("the live renderer shows untrusted text, never sends it", () => {
  test("model text, thinking, tool summary and output, unknown tool name, retry reason, API error", () => {
    expect(render(HOSTILE_TURN).split("\n")).toEqual([
      "I will ␛[2J clear it\\u202e",
      "Done.␛]0;pwned␇ ok␛[2J\\x9b?1049h",
      "● bash printf '␛[2J'",
      "  ⎿ ␛[2J␛]0;tool-title␇cleared",
      "    exit code: 0",
      "● no␛]0;such␇tool ",
      "  ⎿ unknown tool no␛]0;such␇tool",
      "overloaded: ␛[31mbusy␛[0m; retrying in 0.0 s (attempt 1)",
      "API error 400: ␛]0;api␇bad\\u2066request\\u2069",
      "",
    ]);
  });

  test("with colours on, the only escape sequences written are awl's own styling, around the same text", () => {
    const written = render(HOSTILE_TURN, colored);
    expect(written).toContain("\x1b["); // styled
    expect(unstyled(written)).toBe(render(HOSTILE_TURN));
    expect(unstyled(written)).not.toMatch(CONTROL);
    expect(written).toContain(colored.dim(colored.italic("I will ␛[2")));
  });

  test("on a terminal the spinner's label (the model's id) is shown safe too", () => {
    const written = render([{ type: "requestStart", provider: "openai", model: "gpt\x1b]0;x\x07" }, end()], plain, true);
    expect(written).toContain("waiting for gpt␛]0;x␇…");
    // The spinner's own CR and erase-line are the only controls.
    expect(written.replace(/^\r/, "").replaceAll("\x1b[K\r\x1b[K", "")).toBe("⠋ waiting for gpt␛]0;x␇…");
  });

  test("CR LF split across deltas is a line ending; a lone CR is ␍, also at the end of a block or a cut-off answer", () => {
    expect(render([...block(0, "text", ["one\r", "\ntwo\r", "three\r"]), end()])).toBe("one\ntwo␍three␍\n");
    expect(render([...block(0, "text", ["50%\r", "100%"]), end()])).toBe("50%␍100%\n");
    // Cut off mid-block (no blockStop): the held CR is shown when the response ends.
    const cut = render([{ type: "blockStart", index: 0, block: { type: "text", text: "" } }, { type: "delta", index: 0, text: "partial\r" }, end({ stopReason: "error", aborted: true })]);
    expect(cut).toBe("partial␍\n");
    // Text without controls is written exactly as it came.
    const pieces = ["héllo ", "你好 🎉 e\u0301\n", "\tindented\n"];
    expect(render([...block(0, "text", pieces), end()])).toBe(pieces.join(""));
  });
});
