// Issue 12, item 3: visible work at every moment. The status line and the rows
// over it (src/ui/live/status-line.ts) as a turn's events arrive, and the whole turn
// through the renderer onto a terminal that keeps its scrollback
// (./virtual-terminal.ts): the rows are updated in place, never left in the
// output, and the output is exactly what it is without them. Nothing is drawn
// when the output is not a terminal.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/agent/events";
import { LiveArea } from "../../../src/ui/live/live-area";
import { TurnRenderer } from "../../../src/ui/live/render";
import { seconds, tailRows, TICK_MS, TurnStatus } from "../../../src/ui/live/status-line";
import { colored, CONTROL, plain } from "../../support/terminal-text";
import { VirtualTerminal } from "../virtual-terminal";

type Out = NodeJS.WriteStream;

function sink(isTTY: boolean, columns = 80, rows = 24) {
  let written = "";
  const out = { isTTY, columns, rows, write: (s: string) => ((written += s), true) } as unknown as Out;
  return { out, written: () => written };
}

/** A renderer with the REPL's rows under it, on a virtual terminal. */
function onTerminal(columns = 60, rows = 20) {
  const vt = new VirtualTerminal(columns, rows);
  const out = { isTTY: true, columns, rows, write: (s: string) => (vt.write(s), true) } as unknown as Out;
  const live = new LiveArea(out);
  const renderer = new TurnRenderer(out, colored, live);
  /** The rows under the output as the screen shows them now: from the cursor's row when it is at a row's start, else below it. */
  const below = () => {
    const screen = vt.screen().map((row) => Bun.stripANSI(row));
    const at = vt.cursor.row - (vt.rows.length - screen.length);
    return screen.slice(vt.cursor.col === 0 ? at : at + 1).filter(Boolean);
  };
  return { vt, live, renderer, below };
}

const text = (index: number, pieces: string[]): AgentEvent[] => [
  { type: "blockStart", index, block: { type: "text", text: "" } },
  ...pieces.map((t): AgentEvent => ({ type: "delta", index, text: t })),
  { type: "blockStop", index },
];
const call = (index: number, id: string, name: string): AgentEvent => ({ type: "blockStart", index, block: { type: "toolUse", id, name, input: "" } });
const delta = (index: number, t: string): AgentEvent => ({ type: "delta", index, text: t });
const usage = { input: 4000, output: 120 };

describe("the status line", () => {
  test("spinner, what is going on, elapsed seconds, tokens so far, how to interrupt; output tokens estimated as they stream until the API counts them", () => {
    const t = sink(true, 100);
    let now = 1_000;
    const status = new TurnStatus(new LiveArea(t.out), plain, () => now);
    status.request("claude-sonnet-4-5");
    expect(status.rows()).toEqual(["⠋ Waiting for claude-sonnet-4-5… (0s · esc to interrupt)"]);
    status.phase("Answering…");
    status.streamed(400);
    now += 12_400;
    expect(status.rows()).toEqual(["⠋ Answering… (12s · ↓ 100 tokens · esc to interrupt)"]);
    status.responded(usage);
    status.running("bash");
    now += 3_000;
    // One time: the turn's (a tool's own was the same figure again, "Running bash for 3s (3s · …)").
    expect(status.rows()).toEqual(["⠋ Running bash (15s · ↑ 4.0k ↓ 120 tokens · esc to interrupt)"]);
    expect(status.rows()[0]!.match(/\d+s/g)).toEqual(["15s"]);
    status.stop();
    expect(seconds(125_000)).toBe("2m 05s");
  });

  test("on a narrow terminal the least useful parts go first; the line always fits", () => {
    const status = new TurnStatus(new LiveArea(sink(true).out), plain, () => 0);
    status.responded({ input: 12_000, output: 3_400 });
    status.running("bash");
    const at = (columns: number) => status.rows(columns)[0]!;
    expect(at(100)).toBe("⠋ Running bash (0s · ↑ 12k ↓ 3.4k tokens · esc to interrupt)");
    expect(at(55)).toBe("⠋ Running bash (0s · ↑ 12k ↓ 3.4k · esc to interrupt)");
    expect(at(40)).toBe("⠋ Running bash (0s · esc to interrupt)");
    expect(at(32)).toBe("⠋ Running bash (0s · esc)");
    for (const columns of [20, 30, 40, 50, 80]) expect(Bun.stringWidth(at(columns))).toBeLessThan(columns);
    status.stop();
  });

  test("a running command's last lines: a progress bar's CR shows what was written last, colours dropped, controls made safe, cut to the width", () => {
    const output = "one\ntwo\n\x1b[32mthree\x1b[0m\r\n10%\r50%\r100%\nfive\x07\tsix\n" + "x".repeat(200);
    const rows = tailRows(output, 40);
    expect(rows).toEqual(["    three", "    100%", "    five␇   six", `    ${"x".repeat(35)}…`]);
    expect(tailRows("", 40)).toEqual([]);
    for (const row of rows) expect(row).not.toMatch(CONTROL);
  });

  test("nothing is drawn when the output is not a terminal: the renderer writes the same bytes as without the rows", () => {
    const events: AgentEvent[] = [
      { type: "requestStart", provider: "anthropic", model: "claude" },
      ...text(0, ["Here ", "it is.\n\nDone."]),
      call(1, "t1", "bash"),
      delta(1, '{"command":"ls"}'),
      { type: "blockStop", index: 1 },
      { type: "end", stopReason: "toolUse", usage },
      { type: "toolStart", id: "t1", name: "bash", summary: "ls" },
      { type: "toolOutput", id: "t1", name: "bash", tail: "a\nb\n" },
      { type: "toolEnd", id: "t1", name: "bash", output: { content: "a\nb\nexit code: 0", isError: false } },
    ];
    const run = (live: boolean) => {
      const t = sink(false);
      const renderer = new TurnRenderer(t.out, plain, live ? new LiveArea(t.out) : undefined);
      for (const event of events) renderer.handle(event);
      renderer.finish({ stopReason: "stop", aborted: false, usage, context: { tokens: 4120, window: 200_000 }, finalText: "" });
      return t.written();
    };
    expect(run(true)).toBe(run(false));
    expect(run(true)).not.toContain("esc to interrupt");
  });
});

describe("a turn on a terminal, with the rows under it", () => {
  test("a streamed answer: the status line stays under it, updated in place; afterwards the output is exactly the answer, once", () => {
    const answer = "Here is **the fix**:\n\n- read `a.ts`\n- edit it\n\n```ts\nconst x = 1;\n```\n\nDone.";
    const { vt, renderer, below, live } = onTerminal(60, 12);
    const plainRun = new VirtualTerminal(60, 12);
    const bare = new TurnRenderer({ isTTY: true, columns: 60, rows: 12, write: (s: string) => plainRun.write(s) }, colored);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(below()).toEqual([expect.stringMatching(/^⠋ Waiting for claude-sonnet-4-5… \(0s · esc to interrupt\)$/)]);
    for (const event of text(0, answer.match(/[\s\S]{1,3}/g)!)) {
      renderer.handle(event);
      bare.handle(event);
      expect(below()).toEqual([expect.stringMatching(/^. Answering… \(\d+s · (↓ \d+ tokens · )?esc to interrupt\)$/)]);
    }
    renderer.handle({ type: "end", stopReason: "stop", usage });
    bare.handle({ type: "end", stopReason: "stop", usage });
    renderer.finish({ stopReason: "stop", aborted: false, usage, context: { tokens: 4120, window: 200_000 }, finalText: answer });
    live.close();
    expect(below()).toEqual([]);
    expect(vt.problems).toEqual([]);
    const shown = Bun.stripANSI(vt.text()).replace(/\n+$/, "");
    expect(shown).toBe(`${Bun.stripANSI(plainRun.text()).replace(/\n+$/, "")}\n↑ 4.0k in · ↓ 120 out · ctx 2% of 200k`);
    expect(shown.split("the fix").length - 1).toBe(1);
  });

  test("a tool call's line shows as soon as its name arrives, its main argument as it arrives, its size as it grows; it is announced once, when it runs", () => {
    const { vt, renderer, below, live } = onTerminal(70, 20);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    renderer.handle(call(0, "w1", "write"));
    expect(below()).toEqual(["● write 0 bytes", expect.stringMatching(/^⠋ Writing the write call… /)]);
    renderer.handle(delta(0, '{"pa'));
    renderer.handle(delta(0, 'th":"src/a'));
    expect(below()[0]).toBe("● write src/a 14 bytes"); // at once; a growing size alone waits for the next tick
    renderer.handle(delta(0, '.ts","content":"'));
    for (let i = 0; i < 100; i++) renderer.handle(delta(0, "line of the file\\n"));
    renderer.handle(delta(0, '"}'));
    renderer.handle({ type: "blockStop", index: 0 });
    expect(below()[0]).toBe("● write src/a.ts 1.8kB");
    renderer.handle({ type: "end", stopReason: "toolUse", usage });
    expect(below()[0]).toBe("● write src/a.ts 1.8kB"); // waiting to run
    renderer.handle({ type: "toolStart", id: "w1", name: "write", summary: "src/a.ts" });
    expect(below()).toEqual([expect.stringMatching(/^⠋ Running write \(0s/)]);
    renderer.handle({ type: "toolEnd", id: "w1", name: "write", output: { content: "created src/a.ts (1700 bytes)", isError: false } });
    renderer.finish({ stopReason: "stop", aborted: false, usage, context: { tokens: 4120, window: 200_000 }, finalText: "" });
    live.close();
    expect(vt.problems).toEqual([]);
    const shown = Bun.stripANSI(vt.text());
    expect(shown.split("● write").length - 1).toBe(1);
    expect(shown).toContain("● write src/a.ts\n  ⎿ created src/a.ts (1700 bytes)");
    expect(shown).not.toContain("1.8kB");
  });

  test("a running bash command: the tail of its output under its line, replaced in place; gone when it ends", async () => {
    const { vt, renderer, below, live } = onTerminal(60, 20);
    renderer.handle({ type: "toolStart", id: "b1", name: "bash", summary: "make" });
    renderer.handle({ type: "toolOutput", id: "b1", name: "bash", tail: "compiling a\n" });
    await Bun.sleep(TICK_MS * 2.5); // the output is shown at the next tick
    expect(below()).toEqual(["    compiling a", expect.stringMatching(/^. Running bash \(0s · esc to interrupt\)$/)]);
    renderer.handle({ type: "toolOutput", id: "b1", name: "bash", tail: "compiling a\ncompiling b\ncompiling c\ncompiling d\nlinking\n" });
    await Bun.sleep(TICK_MS * 2.5);
    expect(below().slice(0, 4)).toEqual(["    compiling b", "    compiling c", "    compiling d", "    linking"]);
    renderer.handle({ type: "toolEnd", id: "b1", name: "bash", output: { content: "compiling a\nlinking\nexit code: 0", isError: false } });
    renderer.finish({ stopReason: "stop", aborted: false, usage: { input: 0, output: 0 }, context: { tokens: 0, window: 1 }, finalText: "" });
    live.close();
    expect(vt.problems).toEqual([]);
    expect(Bun.stripANSI(vt.text()).replace(/\n+$/, "")).toBe("● bash make\n  ⎿ compiling a\n    linking\n    exit code: 0");
  });

  test("while the model thinks: one row says for how long, the status line says Thinking; then one line is left, never the thought", () => {
    const { vt, renderer, below, live } = onTerminal(60, 20);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    renderer.handle({ type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } });
    for (let i = 0; i < 150; i++) renderer.handle(delta(0, `idea${i} `));
    expect(below()).toEqual(["∴ Thinking… 0s", expect.stringMatching(/^. Thinking… \(0s/)]);
    renderer.handle({ type: "blockStop", index: 0 });
    for (const event of text(1, ["Done."])) renderer.handle(event);
    expect(below()).toEqual([expect.stringMatching(/^. Answering… \(0s/)]);
    renderer.finish({ stopReason: "stop", aborted: false, usage: { input: 0, output: 0 }, context: { tokens: 0, window: 1 }, finalText: "" });
    live.close();
    expect(vt.problems).toEqual([]);
    expect(Bun.stripANSI(vt.text()).replace(/\n+$/, "")).toBe("∴ Thought for 0s\nDone.");
  });

  test("the spinner turns and the seconds count while nothing arrives", async () => {
    const { renderer, below, live } = onTerminal(60, 20);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    const first = below()[0];
    await Bun.sleep(TICK_MS * 2.5);
    expect(below()[0]).not.toBe(first);
    expect(below()[0]!.slice(1)).toBe(first!.slice(1));
    renderer.abandon();
    live.close();
  });

  test("calls a turn ends before running are shown as not run; one cut off mid-input is dropped, as the session drops it", () => {
    const { vt, renderer, live } = onTerminal(80, 20);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    renderer.handle(call(0, "a", "bash"));
    renderer.handle(delta(0, '{"command":"echo one"}'));
    renderer.handle({ type: "blockStop", index: 0 });
    renderer.handle(call(1, "b", "read"));
    renderer.handle(delta(1, '{"path":"half'));
    renderer.handle({ type: "end", stopReason: "error", aborted: true });
    renderer.finish({ stopReason: "error", aborted: true, usage: { input: 0, output: 0 }, context: { tokens: 0, window: 1 }, finalText: "" });
    live.close();
    expect(Bun.stripANSI(vt.text()).replace(/\n+$/, "").split("\n")).toEqual(["● bash echo one", "  ⎿ Interrupted: this tool call was not run.", "Interrupted."]);
    expect(vt.problems).toEqual([]);
  });

  test("while a question about a call is up, the status rows step aside; the typed-ahead row stays", () => {
    const { renderer, below, live } = onTerminal(60, 20);
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    live.typeAhead("› later");
    expect(below()).toHaveLength(2);
    const back = renderer.hideStatus();
    expect(below()).toEqual(["› later"]);
    back();
    expect(below()).toEqual([expect.stringMatching(/Waiting for m…/), "› later"]);
    renderer.abandon();
    expect(below()).toEqual(["› later"]);
    live.close();
    expect(below()).toEqual([]);
  });

  test("a long answer on a short screen with the rows under it: the growing block stays on the screen above them, every line is left once", () => {
    const sections = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} has **bold** words, long enough to take a row or two of this narrow terminal, said twice: long enough to take a row or two.`);
    const { vt, renderer, live } = onTerminal(40, 10);
    live.typeAhead("› typed ahead");
    renderer.handle({ type: "requestStart", provider: "anthropic", model: "m" });
    for (const event of text(0, sections.join("\n\n").match(/[\s\S]{1,4}/g)!)) renderer.handle(event);
    renderer.handle({ type: "end", stopReason: "stop" });
    renderer.abandon();
    live.close();
    expect(vt.problems).toEqual([]);
    const all = Bun.stripANSI(vt.text());
    for (let i = 0; i < 8; i++) expect({ i, times: all.split(`Paragraph ${i} `).length - 1 }).toEqual({ i, times: 1 });
    expect(all).not.toContain("**");
    expect(all).not.toContain("esc to interrupt");
    expect(all).not.toContain("typed ahead");
  });
});
