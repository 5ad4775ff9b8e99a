// Issue 12, item 3: a running command's output, watched as it arrives. bash
// passes each piece on as it reads it (ToolContext.onOutput); runTool turns
// the pieces into the tail of the output so far, with the provider keys
// scrubbed from it even when a key arrives split across two pieces. The result
// the model gets is unchanged.
import { describe, expect, test } from "bun:test";
import { LIVE_TAIL_CHARS, runTool } from "../../src/tools";
import { tempDir } from "./helpers";

const KEY = "sk-ant-api03-live-tail-secret-0123456789";

describe("a tool's output as it arrives", () => {
  test("bash passes its output on while the command still runs, in order, stdout and stderr alike", async () => {
    const cwd = await tempDir();
    const seen: { at: number; tail: string }[] = [];
    const started = Date.now();
    const command = "echo one; sleep 0.4; echo two >&2; sleep 0.4; echo three";
    const output = await runTool("bash", JSON.stringify({ command }), { cwd, signal: new AbortController().signal }, (tail) => seen.push({ at: Date.now() - started, tail }));
    const ended = Date.now() - started;
    expect(output.content).toBe("one\ntwo\nthree\nexit code: 0");
    expect(seen.at(-1)!.tail).toBe("one\ntwo\nthree\n");
    // "one" was there long before the command ended.
    const first = seen.find((s) => s.tail.includes("one"))!;
    expect(first.tail).toBe("one\n");
    expect(ended - first.at).toBeGreaterThan(500);
  });

  test("the tail is the end of the output, scrubbed; a key split across pieces never shows, not even in part", async () => {
    const cwd = await tempDir();
    const tails: string[] = [];
    const half = KEY.length / 2;
    const command = `printf '%s' '${KEY.slice(0, half)}'; sleep 0.3; printf '%s\\n' '${KEY.slice(half)}'; sleep 0.3; head -c 9000 /dev/zero | tr '\\0' x; echo; echo end`;
    const output = await runTool("bash", JSON.stringify({ command }), { cwd, signal: new AbortController().signal, secrets: { ANTHROPIC_API_KEY: KEY } }, (tail) => tails.push(tail));
    expect(output.content).toStartWith("[redacted ANTHROPIC_API_KEY]\n");
    expect(tails.length).toBeGreaterThan(2);
    expect(tails.some((tail) => tail.includes("[redacted ANTHROPIC_API_KEY]"))).toBe(true);
    for (const tail of tails) {
      expect(tail.length).toBeLessThanOrEqual(LIVE_TAIL_CHARS);
      // No stretch of the key long enough to mean anything: not its whole, not either half once complete.
      expect(tail).not.toContain(KEY.slice(0, 12));
      expect(tail).not.toContain(KEY.slice(-12));
    }
    expect(tails.at(-1)).toEndWith("x\nend\n");
  });

  test("a key that straddles where the tail starts is scrubbed before the tail is cut", async () => {
    const cwd = await tempDir();
    const tails: string[] = [];
    // The key ends 10 characters into the last LIVE_TAIL_CHARS.
    const after = "y".repeat(LIVE_TAIL_CHARS - 10);
    const command = `printf '%s%s' '${KEY}' '${after}'`;
    await runTool("bash", JSON.stringify({ command }), { cwd, signal: new AbortController().signal, secrets: { ANTHROPIC_API_KEY: KEY } }, (tail) => tails.push(tail));
    const last = tails.at(-1)!;
    expect(last.endsWith(after)).toBe(true);
    expect(last).not.toContain(KEY.slice(-10));
  });

  test("tools that print nothing as they go (read, write, edit) pass nothing on; without a watcher nothing changes", async () => {
    const cwd = await tempDir();
    const tails: string[] = [];
    await runTool("write", JSON.stringify({ path: "a.txt", content: "hi\n" }), { cwd, signal: new AbortController().signal }, (tail) => tails.push(tail));
    expect(tails).toEqual([]);
    const output = await runTool("bash", JSON.stringify({ command: "echo fine" }), { cwd, signal: new AbortController().signal });
    expect(output.content).toBe("fine\nexit code: 0");
  });
});
