// Issue 11, item 4: what the live renderer writes for a turn whose model, tools
// and API send control characters and escape sequences: they are shown, the
// terminal never receives them; awl's own colours are untouched.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/agent/events";
import { renderAnswer } from "../../../src/ui/render/markdown-stream";
import { LiveArea } from "../../../src/ui/live/live-area";
import { TurnRenderer } from "../../../src/ui/live/render";
import { colored, CONTROL, plain, unstyled } from "../../support/terminal-text";
import { VirtualTerminal } from "../virtual-terminal";

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
  { type: "retry", attempt: 0, attempts: 6, delayMs: 10, reason: "overloaded: \x1b[31mbusy\x1b[0m" },
  end({ stopReason: "error", errorMessage: "API error 400: \x1b]0;api\x07bad\u2066request\u2069" }),
];

describe("the live renderer shows untrusted text, never sends it", () => {
  test("model text, thinking, tool summary and output, unknown tool name, retry reason, API error", () => {
    expect(render(HOSTILE_TURN).split("\n")).toEqual([
      "∴ Thought for 0s", // folded: Ctrl+O shows it (test/ui/session/folded.test.ts), made safe the same way
      "Done.␛]0;pwned␇ ok␛[2J\\x9b?1049h",
      "● bash printf '␛[2J'",
      "  ⎿ ␛[2J␛]0;tool-title␇cleared",
      "    exit code: 0",
      "● no␛]0;such␇tool ",
      "  ⎿ unknown tool no␛]0;such␇tool",
      "overloaded: ␛[31mbusy␛[0m · attempt 0 of 6, next in 0.0 s",
      "API error 400: ␛]0;api␇bad\\u2066request\\u2069",
      "",
    ]);
  });

  test("with colours on, the only escape sequences written are awl's own styling, around the same text", () => {
    const written = render(HOSTILE_TURN, colored);
    expect(written).toContain("\x1b["); // styled
    expect(unstyled(written)).toBe(render(HOSTILE_TURN));
    expect(unstyled(written)).not.toMatch(CONTROL);
    expect(written).toContain(colored.dim("∴ Thought for 0s"));
  });

  test("on a terminal the status line's label (the model's id) is shown safe too", () => {
    let written = "";
    const out = { write: (s: string) => ((written += s), true), isTTY: true, columns: 100, rows: 24 } as unknown as NodeJS.WriteStream;
    const renderer = new TurnRenderer(out, plain, new LiveArea(out));
    renderer.handle({ type: "requestStart", provider: "openai", model: "gpt\x1b]0;x\x07" });
    renderer.abandon();
    expect(written).toContain("Waiting for gpt␛]0;x␇…");
    // The rows' own controls (save, index, erase, restore, reset) are the only ones.
    expect(written.replace(/\x1b[78DM]|\r(?:\x1b\[J)?|\x1b\[0m|\x1b\[\?7[hl]/g, "")).toBe("⠋ Waiting for gpt␛]0;x␇… (0s · esc to interrupt)");
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

// Issue 12: answers rendered as they stream, edits as diffs, previews that keep their columns.
describe("what a turn looks like on a terminal", () => {
  const onTerminal = (events: AgentEvent[], columns = 60, rows = 20) => {
    const terminal = new VirtualTerminal(columns, rows);
    const renderer = new TurnRenderer({ write: (s: string) => terminal.write(s), isTTY: true, columns, rows }, colored);
    for (const event of events) renderer.handle(event);
    renderer.abandon();
    return terminal;
  };

  test("an answer streamed in small deltas ends up rendered as markdown, exactly as rendered whole, in place", () => {
    const answer = "Here is **the fix**:\n\n- read `a.ts`\n- edit it\n\n```ts\nconst x = 1;\n```\n\nDone.";
    const deltas = answer.match(/[\s\S]{1,3}/g)!;
    const terminal = onTerminal([...block(0, "text", deltas), end()]);
    expect(terminal.problems).toEqual([]);
    expect(terminal.text()).toBe(renderAnswer(answer, 60));
    expect(Bun.stripANSI(terminal.text())).toContain("Here is the fix:\n  • read a.ts\n  • edit it");
  });

  test("an edit's result is its one line, then the diff of what it changed", () => {
    const before = Buffer.from("a\nb\nconst x = 1;\nd\n");
    const after = Buffer.from("a\nb\nconst x = 2;\nd\n");
    const output = { content: "edited f.ts: line 3 replaced, now line 3", isError: false, change: { created: false, before, after } };
    expect(render([{ type: "toolStart", id: "t", name: "edit", summary: "f.ts" }, { type: "toolEnd", id: "t", name: "edit", output }]).split("\n")).toEqual([
      "● edit f.ts",
      "  ⎿ edited f.ts: line 3 replaced, now line 3",
      "    @@ -1,4 +1,4 @@",
      "     a",
      "     b",
      "    -const x = 1;",
      "    +const x = 2;",
      "     d",
      "",
    ]);
  });

  test("a failed write shows its error, not a diff", () => {
    const output = { content: "could not write f.ts: disk full; f.ts is unchanged", isError: true };
    expect(render([{ type: "toolEnd", id: "t", name: "write", output }])).toBe("  ⎿ could not write f.ts: disk full; f.ts is unchanged\n");
  });

  test("read and bash previews keep indentation and tab columns, and are cut by display width", () => {
    const content = `     1\tfunction f() {\n     2\t\treturn "${"你好".repeat(40)}";\n     3\t}\n     4\t\n`;
    const lines = render([{ type: "toolEnd", id: "t", name: "read", output: { content, isError: false } }]).split("\n");
    expect(lines[0]).toBe("  ⎿      1  function f() {");
    expect(lines[1]!.startsWith('         2          return "你好')).toBe(true);
    expect(lines[1]!.endsWith("…")).toBe(true);
    expect(Bun.stringWidth(lines[1]!)).toBeLessThanOrEqual(4 + 94); // the 100 columns less the tool lines' margin
    expect(lines[2]).toBe("         3  }");
    expect(lines[3]).toBe("    … 1 more line (ctrl+o shows all)");
  });

  test("a command's preview is its last lines, after how many came before: where a test run's failures and summary are", () => {
    const content = `${Array.from({ length: 40 }, (_, i) => `test ${i + 1} ok`).join("\n")}\n2 failed, 38 passed\nexit code: 1`;
    const lines = render([{ type: "toolEnd", id: "t", name: "bash", output: { content, isError: true }, effect: "exec" }]).split("\n");
    expect(lines).toEqual([
      "  ⎿ … 37 earlier lines (ctrl+o shows all)",
      "    test 38 ok",
      "    test 39 ok",
      "    test 40 ok",
      "    2 failed, 38 passed",
      "    exit code: 1",
      "",
    ]);
    // On a narrow terminal the row still fits: the key's hint gives way first.
    let written = "";
    const narrow = new TurnRenderer({ write: (s: string) => (written += s), isTTY: false, columns: 40 }, plain);
    narrow.handle({ type: "toolEnd", id: "t", name: "bash", output: { content, isError: true }, effect: "exec" });
    expect(written.split("\n")[0]).toBe("  ⎿ … 37 earlier lines");
    for (const row of written.split("\n")) expect(Bun.stringWidth(row)).toBeLessThan(40);
    // Short output is shown whole, with nothing said about lines hidden.
    expect(render([{ type: "toolEnd", id: "t", name: "bash", output: { content: "a\nexit code: 0", isError: false }, effect: "exec" }])).toBe("  ⎿ a\n    exit code: 0\n");
  });

  test("a prompt that got no answer: a line says it stays and goes with the next one, wrapped between words on a narrow terminal", () => {
    let written = "";
    const renderer = new TurnRenderer({ write: (s: string) => (written += s), isTTY: false, columns: 40 }, plain);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    renderer.handle(end({ stopReason: "error", errorMessage: "Anthropic rejected the API key (401)" }));
    renderer.finish({ stopReason: "error", aborted: false, usage: { input: 0, output: 0 }, context: { tokens: 0, window: 1 }, finalText: "" });
    expect(written.split("\n")).toEqual([
      "Anthropic rejected the API key (401)",
      "No answer: this prompt stays in the",
      "conversation and goes to the model with",
      "your next one.",
      "",
    ]);
  });

  test("thinking is one line, however long: how long it took, never its words", () => {
    let now = 1_000;
    let written = "";
    const renderer = new TurnRenderer({ write: (s: string) => (written += s), isTTY: false, columns: 100 }, plain, undefined, () => now);
    const words = Array.from({ length: 150 }, (_, i) => `word${i}`);
    renderer.handle({ type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } });
    for (const word of words) {
      now += 40;
      renderer.handle({ type: "delta", index: 0, text: `${word} ` });
    }
    renderer.handle({ type: "blockStop", index: 0 });
    for (const event of block(1, "text", ["The answer."])) renderer.handle(event);
    renderer.abandon();
    expect(written).toBe("∴ Thought for 6s\nThe answer.\n");
  });
});

describe("an answer the API fails part-way and asks again", () => {
  test("what was shown ends where it stopped, a line says the answer starts again, and the second answer follows; the first's call is never shown as run or not run", () => {
    const out = render([
      { type: "requestStart", provider: "anthropic", model: "claude" },
      { type: "blockStart", index: 0, block: { type: "text", text: "" } },
      { type: "delta", index: 0, text: "The first half" },
      { type: "blockStart", index: 1, block: { type: "toolUse", id: "t1", name: "bash", input: "" } },
      { type: "delta", index: 1, text: '{"command":"touch x"}' },
      { type: "blockStop", index: 1 },
      { type: "retry", attempt: 1, attempts: 6, delayMs: 5, reason: "Anthropic is overloaded", restart: true },
      ...block(0, "text", ["The whole answer."]),
      end(),
    ]);
    expect(out).toMatch(/The first half\n.*Anthropic is overloaded · attempt 1 of 6, next in 0\.0 s · the answer starts again\n.*The whole answer\./s);
    expect(out).not.toContain("touch x");
    expect(out).not.toContain("not run");
  });
});
