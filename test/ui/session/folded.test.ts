// Ctrl+O: the latest turn's thinking and tool output, which the turn showed
// folded, printed in full, made safe, wrapped to the width.
import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/conversation";
import { unfoldedRows } from "../../../src/ui/session/folded";
import { readLine } from "../../../src/ui/input/input";
import { colored, CONTROL, plain, unstyled } from "../../support/terminal-text";
import { fakeTerminal } from "../fake-terminal";

const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const thought = Array.from({ length: 150 }, (_, i) => `idea${i}`).join(" ");
const testRun = `${Array.from({ length: 40 }, (_, i) => `test ${i + 1} ok`).join("\n")}\nexit code: 0`;
const turn: Message[] = [
  prompt("an earlier prompt"),
  { role: "assistant", content: [{ type: "thinking", thinking: "earlier thought" }, { type: "text", text: "earlier answer" }] },
  prompt("run the tests"),
  { role: "assistant", content: [{ type: "thinking", thinking: thought, signature: "s" }, { type: "toolUse", id: "t1", name: "bash", input: '{"command":"bun test"}' }] },
  { role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: testRun }] },
  { role: "assistant", content: [{ type: "toolUse", id: "t2", name: "read", input: '{"path":"x"}' }] },
  { role: "user", content: [{ type: "toolResult", toolUseId: "t2", content: "\x1b]0;title\x07no such file", isError: true }] },
  { role: "assistant", content: [{ type: "text", text: "All pass." }] },
];

describe("Ctrl+O", () => {
  test("the latest turn's thinking, every word, and each tool's whole output, in order; nothing of earlier turns", () => {
    const rows = unfoldedRows(turn, plain, 60);
    const text = rows.join("\n");
    expect(rows[0]).toBe("The latest turn's thinking and tool output, in full:");
    expect(rows[1]).toBe("∴ Thinking");
    expect(text.replace(/\s+/g, " ")).toContain(thought);
    expect(text).not.toContain("earlier");
    const bash = rows.indexOf("● bash bun test");
    expect(rows.slice(bash + 1, bash + 42)).toEqual([...Array.from({ length: 40 }, (_, i) => `    test ${i + 1} ok`), "    exit code: 0"]);
    expect(rows.slice(bash + 42)).toEqual(["● read x", "    ␛]0;title␇no such file"]);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(60);
  });

  test("styled, it holds nothing but awl's own escape sequences", () => {
    const rows = unfoldedRows(turn, colored, 60);
    expect(unstyled(rows.join("\n"))).toBe(unfoldedRows(turn, plain, 60).join("\n"));
    expect(unstyled(rows.join("\n"))).not.toMatch(CONTROL);
  });

  test("says so when there is nothing to show", () => {
    expect(unfoldedRows([], plain, 60)).toEqual(["Ctrl+O: no turn yet."]);
    expect(unfoldedRows([prompt("hi"), { role: "assistant", content: [{ type: "text", text: "hello" }] }], plain, 60)).toEqual([
      "Ctrl+O: the latest turn has no thinking or tool output to show.",
    ]);
  });

  test("at the prompt it prints them above the input, which stays as typed", async () => {
    const tty = fakeTerminal();
    const line = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output, unfold: () => ["first row", "second row"] });
    tty.type("half typed");
    await Bun.sleep(0);
    tty.type("\x0f");
    await Bun.sleep(0);
    expect(tty.written()).toContain("first row\r\nsecond row\r\n");
    expect(tty.written().slice(tty.written().indexOf("second row"))).toContain("> half typed");
    tty.type(" and sent\r");
    expect(await line).toEqual({ kind: "line", text: "half typed and sent" });
  });
});
