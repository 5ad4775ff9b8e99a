// What each call does, as its tool declares it (src/tools/tool.ts), and how the
// approvals judge it: by the effect, per call, never by the tool's name.
import { describe, expect, test } from "bun:test";
import { Approvals } from "../../src/agent/approval";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callEffect, checkCall, runCall, tools } from "../../src/tools";

describe("effects", () => {
  test("each call's effect, from its input: a file's path made absolute, a command as given", () => {
    expect(callEffect("read", JSON.stringify({ path: "a.txt" }), "/p")).toEqual({ kind: "read" });
    expect(callEffect("write", JSON.stringify({ path: "a.txt", content: "x" }), "/p")).toEqual({ kind: "write", path: "/p/a.txt" });
    expect(callEffect("edit", JSON.stringify({ path: "/q/b.txt", oldText: "a", newText: "b" }), "/p")).toEqual({ kind: "write", path: "/q/b.txt" });
    expect(callEffect("bash", JSON.stringify({ command: "ls" }), "/p")).toEqual({ kind: "exec", command: "ls" });
    // A call its tool would refuse unrun has no effect.
    expect(callEffect("write", JSON.stringify({ path: "a.txt" }), "/p")).toBeUndefined();
    expect(callEffect("nosuch", "{}", "/p")).toBeUndefined();
  });

  test("a command the read-only rules pass is judged a read call; any other command, and any write, is not", () => {
    expect(Approvals.readOnly({ kind: "exec", command: "ls && cat a | wc -l" })).toBe(true);
    expect(Approvals.readOnly({ kind: "exec", command: "ls > out.txt" })).toBe(false);
    expect(Approvals.readOnly({ kind: "write", path: "/p/a" })).toBe(false);
    expect(Approvals.readOnly({ kind: "read" })).toBe(true);
  });

  test("in read-only mode every tool whose calls may change something is refused, whatever its name", async () => {
    const approvals = new Approvals("read-only");
    const inputs: Record<string, unknown> = { read: { path: "a" }, write: { path: "a", content: "" }, edit: { path: "a", oldText: "x", newText: "y" }, bash: { command: "touch a" }, task: { description: "d", prompt: "p" } };
    for (const tool of tools()) {
      const raw = JSON.stringify(inputs[tool.name]);
      const decision = await approvals.decide(checkCall(tool.name, raw), "/p");
      expect([tool.name, decision.action]).toEqual([tool.name, callEffect(tool.name, raw, "/p")?.kind === "read" ? "run" : "refuse"]);
    }
  });
});

describe("a tool call is checked once", () => {
  test("the approvals pass on the very call they were given, and the run executes its typed input; a refused call carries the tool's words", async () => {
    const dir = mkdtempSync(join(tmpdir(), "awl-call-"));
    await Bun.write(join(dir, "a.txt"), "hello\n");
    const call = checkCall("read", JSON.stringify({ path: "a.txt" }));
    expect(call).toMatchObject({ name: "read", input: { path: "a.txt" } });
    const decision = await new Approvals("ask").decide(call, dir);
    expect(decision.action === "run" && decision.call).toBe(call);
    const output = await runCall(call, { cwd: dir, signal: new AbortController().signal });
    expect(output).toMatchObject({ isError: false, content: expect.stringContaining("hello") });

    const bad = checkCall("read", '{"path": 3}');
    expect(bad).toEqual({ name: "read", error: expect.stringContaining("read: path must be a string") });
    expect(await runCall(bad, { cwd: dir, signal: new AbortController().signal })).toEqual({ content: (bad as { error: string }).error, isError: true });
    expect(checkCall("read", "{not json")).toEqual({ name: "read", error: expect.stringContaining("read: input is not valid JSON") });
  });
});
