// Subagents (docs/subagents.md): a `task` call runs a child agent with a
// fresh context whose final answer is the call's result; several run at
// once; the child's entries go into the parent's log, wrapped, as they
// happen; its file changes are the parent's to rewind. Real tools, a real
// session on disk, the strict test server playing parent and children.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import type { ApprovalRequest } from "../../src/agent/approval";
import { SessionManager } from "../../src/session";
import { isChildRequest, subagentModel, systemText, taskCall } from "../support/subagent-model";
import { useAgentFixture, logLines } from "./helpers";
import { hostWith } from "../support/extension-host";

const fx = useAgentFixture();

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const newAgent = (approvals?: ConstructorParameters<typeof Agent>[0]["approvals"]) =>
  new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env, ...(approvals ? { approvals } : {}) });
const never = new AbortController().signal;

/** Holds each child's first request until `count` of them are in flight at once: a run that sends them one after another never gets past it. */
function meetAt(count: number) {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  const seen = new Set<string>();
  return async (request: Parameters<NonNullable<typeof fx.server.onRequest>>[0]) => {
    if (!isChildRequest(request) || request.body.messages.length > 1) return;
    const task = JSON.stringify(request.body.messages[0]);
    if (seen.has(task)) return;
    seen.add(task);
    if (++arrived === count) open();
    await all;
  };
}

test("three task calls in one answer run at once; the parent gets three short results and none of the children's messages", async () => {
  writeFileSync(join(fx.project, "a.txt"), "alpha\n");
  writeFileSync(join(fx.project, "b.txt"), "beta\n");
  writeFileSync(join(fx.project, "c.txt"), "gamma\n");
  fx.server.onRequest = meetAt(3);
  fx.server.respond = subagentModel([
    {
      blocks: [
        taskCall("read a", { calls: [["read", { path: "a.txt" }]], answer: "A read" }),
        taskCall("read b", { calls: [["read", { path: "b.txt" }]], answer: "B read" }),
        taskCall("edit c", { calls: [["read", { path: "c.txt" }], ["edit", { path: "c.txt", oldText: "gamma", newText: "GAMMA" }]], answer: "C edited" }),
      ],
    },
    { blocks: [{ type: "text", text: "All three are done." }] },
  ]);
  const agent = newAgent();
  const result = await agent.runTurn("do the three things", never, () => {});
  expect(result.finalText).toBe("All three are done.");
  expect(readFileSync(join(fx.project, "c.txt"), "utf8")).toBe("GAMMA\n");

  const parent = fx.server.requests.filter((r) => !isChildRequest(r));
  const children = fx.server.requests.filter(isChildRequest);
  expect(parent).toHaveLength(2);
  expect(children).toHaveLength(2 + 2 + 3);
  // The parent's prefix never changes: the same system prompt and tools in every request.
  expect(new Set(parent.map((r) => systemText(r))).size).toBe(1);
  expect(new Set(parent.map((r) => JSON.stringify(r.body.tools))).size).toBe(1);
  // A child is offered the parent's tools without task.
  expect(children[0]!.body.tools.map((t: { name: string }) => t.name)).toEqual(["bash", "read", "write", "edit"]);
  expect(parent[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("task");

  const last = parent[1]!.body.messages;
  const results = last.at(-1).content.filter((b: { type: string }) => b.type === "tool_result");
  expect(results.map((r: { content: unknown }) => JSON.stringify(r.content))).toEqual([expect.stringContaining("A read"), expect.stringContaining("B read"), expect.stringContaining("C edited")]);
  // Nothing of a child's conversation reaches the parent: three messages (prompt, answer, results).
  expect(last).toHaveLength(3);
  expect(JSON.stringify(last)).not.toContain("You are a subagent");

  // The children's entries are in the parent's log, wrapped, each naming its call; the parent's leaf is its own answer.
  const lines = await logLines(agent.session.sessionFile);
  const wrapped = lines.filter((l) => l.type === "child");
  const calls = lines.find((l) => l.type === "message" && l.message.role === "assistant")!.message.content.map((b: { id: string }) => b.id);
  expect(new Set(wrapped.map((w) => w.task))).toEqual(new Set(calls));
  expect(wrapped.filter((w) => w.entry.type === "message" && w.entry.message.role === "assistant")).toHaveLength(7);
  expect(wrapped.some((w) => w.entry.type === "file_change")).toBe(true);
  // Each result keeps what its subagent spent (never sent: the requests above hold only the answers).
  const kept = lines.findLast((l) => l.type === "message" && l.message.role === "user" && l.message.content[0].type === "toolResult")!.message.content;
  for (const r of kept) expect(r.usage).toEqual({ input: expect.any(Number), output: expect.any(Number), cacheRead: expect.any(Number), cacheWrite: expect.any(Number) });
  expect(JSON.stringify(parent[1]!.body)).not.toContain("cacheRead");
  const leaf = agent.session.getEntry(agent.session.getLeafId()!)!;
  expect(leaf.type).toBe("message");
});

test("a child's failure is its call's result, and the parent goes on", async () => {
  fx.server.respond = subagentModel([
    { blocks: [taskCall("unknown agent", { calls: [], answer: "never" }, "nobody"), taskCall("fine", { calls: [], answer: "fine here" })] },
    { blocks: [{ type: "text", text: "one failed" }] },
  ]);
  const agent = newAgent();
  expect((await agent.runTurn("go", never, () => {})).finalText).toBe("one failed");
  const results = fx.server.requests.at(-1)!.body.messages.at(-1).content;
  expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining("no agent is named nobody") });
  expect(JSON.stringify(results[1].content)).toContain("fine here");
});

test("a child's question names it; a no reaches the child as a refusal and the parent gets the child's answer", async () => {
  const { Approvals } = await import("../../src/agent/approval");
  fx.server.respond = subagentModel([
    { blocks: [taskCall("clean up", { calls: [["bash", { command: "rm -rf build" }]], answer: "could not clean" })] },
    { blocks: [{ type: "text", text: "the child could not clean" }] },
  ]);
  const agent = newAgent(new Approvals("ask", fx.env));
  const asked: ApprovalRequest[] = [];
  const result = await agent.runTurn("clean", never, () => {}, async (request) => {
    asked.push(request);
    return { kind: "no", reason: "keep build" };
  });
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ tool: "bash", agent: "subagent: clean up" });
  expect(result.finalText).toBe("the child could not clean");
  const childResults = fx.server.requests.filter(isChildRequest).at(-1)!.body.messages.at(-1).content;
  expect(JSON.stringify(childResults)).toContain("keep build");
  expect(JSON.stringify(fx.server.requests.at(-1)!.body.messages.at(-1).content)).toContain("could not clean");
});

test("children's requests do not count for --max-turns; each child stops at its own cap", async () => {
  fx.env.AWL_SUBAGENT_REQUESTS = "2";
  fx.server.respond = subagentModel([
    { blocks: [taskCall("loop", { calls: [["read", { path: ".keep" }], ["read", { path: ".keep" }], ["read", { path: ".keep" }]], answer: "never" })] },
    { blocks: [{ type: "text", text: "stopped" }] },
  ]);
  const agent = newAgent();
  const result = await agent.runTurn("go", never, () => {}, undefined, { maxTurns: 2 });
  expect(result.finalText).toBe("stopped");
  expect(fx.server.requests.filter(isChildRequest)).toHaveLength(2);
  expect(JSON.stringify(fx.server.requests.at(-1)!.body.messages.at(-1).content)).toContain("cap of 2 requests");
});

test("children spend the parent turn's --max-cost: a child stops before a request that could pass it, and so does the parent", async () => {
  const script = subagentModel([
    { blocks: [taskCall("loop", { calls: Array.from({ length: 5 }, () => ["read", { path: ".keep" }] as [string, unknown]), answer: "never" })] },
    { blocks: [{ type: "text", text: "never reached" }] },
  ]);
  // Each child answer reports 250,000 output tokens ($3.75 at Sonnet's $15 per million): one fits a $4 budget, a second could not.
  fx.server.respond = (request) => (isChildRequest(request) ? { ...script(request), usage: { input: 100, output: 250_000 } } : script(request));
  const agent = newAgent();
  const result = await agent.runTurn("go", never, () => {}, undefined, { maxCost: 4 });
  expect(fx.server.requests.filter(isChildRequest)).toHaveLength(1);
  expect(fx.server.requests.filter((r) => !isChildRequest(r))).toHaveLength(1);
  expect(result.maxCostReached?.spent).toBeGreaterThan(3.75);
  // The task's result, in the log for the next run to send: the child stopped for the budget.
  const results = (await logLines(agent.session.sessionFile)).filter((l) => l.type === "message" && l.message.role === "user").at(-1).message.content;
  expect(results[0]).toMatchObject({ type: "toolResult", isError: true, content: expect.stringContaining("--max-cost") });
});

test("a rewind of the parent to before its task calls puts back every file a child edited or a child's command made, byte for byte", async () => {
  const { rewindFiles } = await import("../../src/agent/rewind-files");
  const original = Buffer.from([0x61, 0x0d, 0x0a, 0xff, 0x00, 0x62]); // CRLF, a byte that is not UTF-8, a NUL
  writeFileSync(join(fx.project, "a.txt"), "one\ntwo\n");
  writeFileSync(join(fx.project, "raw.bin"), original);
  fx.server.respond = subagentModel([
    {
      blocks: [
        taskCall("edit a", { calls: [["edit", { path: "a.txt", oldText: "two", newText: "TWO" }]], answer: "edited" }),
        taskCall("build", { calls: [["bash", { command: "mkdir -p build && echo made > build/out.txt && printf new > raw.bin" }]], answer: "built" }),
        taskCall("write", { calls: [["write", { path: "fresh.txt", content: "fresh\n" }]], answer: "written" }),
      ],
    },
    { blocks: [{ type: "text", text: "done" }] },
  ]);
  const agent = newAgent();
  await agent.runTurn("change things", never, () => {});
  expect(readFileSync(join(fx.project, "a.txt"), "utf8")).toBe("one\nTWO\n");
  expect(readFileSync(join(fx.project, "build/out.txt"), "utf8")).toBe("made\n");
  const prompt = agent.session.getBranch().find((e) => e.type === "message" && e.message.role === "user")!;
  // /rewind lists the files the turn's subagents changed under its prompt.
  const { rewindPoints, readWholeLog } = await import("../../src/session/tree");
  const [point] = rewindPoints(readWholeLog(agent.session.sessionFile), agent.session.getLeafId());
  expect(point!.files.map((f) => f.slice(fx.project.length + 1)).sort()).toEqual(["a.txt", "build/out.txt", "fresh.txt", "raw.bin"]);
  const done = await rewindFiles(agent.session, prompt.id);
  expect(done.steps.filter((s) => s.action !== "restore")).toEqual([]);
  expect(readFileSync(join(fx.project, "a.txt"), "utf8")).toBe("one\ntwo\n");
  expect(Buffer.compare(readFileSync(join(fx.project, "raw.bin")), original)).toBe(0);
  const { existsSync } = await import("node:fs");
  expect(existsSync(join(fx.project, "build/out.txt"))).toBe(false);
  expect(existsSync(join(fx.project, "fresh.txt"))).toBe(false);
});

test("stats count the children's tokens by their model; search finds a child's words; an export nests the child's work under its call; a fork copies the children of the calls on its path", async () => {
  const { usageTotals } = await import("../../src/session/store/usage-totals");
  const { searcher } = await import("../../src/session/store/search");
  const { forkSession } = await import("../../src/session/tree/fork");
  fx.server.respond = subagentModel([
    { blocks: [taskCall("look", { calls: [["read", { path: ".keep" }]], answer: "the needle-in-a-child word" })] },
    { blocks: [{ type: "text", text: "done" }] },
  ]);
  const agent = newAgent();
  await agent.runTurn("look around", never, () => {});
  const file = agent.session.sessionFile;
  const totals = usageTotals([file], 0);
  // Two requests of the parent's, two of the child's (same model here).
  expect(totals.models).toEqual([expect.objectContaining({ provider: "anthropic", model: "claude-sonnet-4-5", requests: 4 })]);
  const hits: string[] = [];
  searcher("needle-in-a-child")(file, (h) => hits.push(h.line));
  // The child's answer is found (once: not again in its partials), as is its task (the prompt the parent wrote it).
  expect(hits.filter((h) => h.startsWith("the needle-in-a-child word"))).toEqual(["the needle-in-a-child word (last result: (empty file))"]);

  // An export shows the child's work nested under its call; the JSONL export holds its lines.
  const { exportText } = await import("../../src/ui/session/export");
  const markdown = exportText(file, "md", fx.env);
  const call = markdown.indexOf("**task** `look`");
  const nested = markdown.indexOf("<details><summary>What the subagent did</summary>");
  expect(call).toBeGreaterThan(-1);
  expect(nested).toBeGreaterThan(call);
  expect(markdown.slice(nested)).toContain("**read** `.keep`");
  expect(markdown.slice(nested, markdown.indexOf("</details>", nested))).toContain("the needle-in-a-child word");
  expect(exportText(file, "html", fx.env)).toContain('<details class="subagent">');
  expect(exportText(file, "jsonl", fx.env).split("\n").filter((l) => l.startsWith('{"type":"child"')).length).toBe((await logLines(file)).filter((l) => l.type === "child").length);

  for (const at of [undefined, agent.session.getLeafId()!.slice(0, 8)]) {
    const fork = forkSession({ parentFile: file, cwd: fx.project, model: (m) => m, ...(at ? { at } : {}) });
    const copied = (await logLines(fork.file)).filter((l) => l.type === "child");
    expect(copied).toEqual((await logLines(file)).filter((l) => l.type === "child"));
    expect(copied.length).toBeGreaterThan(0);
  }
});

test("an agent defined in .awl/agents with Claude Code's tool names is offered only those tools, is listed in task's description, and leaves the system prompt alone", async () => {
  const { mkdirSync } = await import("node:fs");
  mkdirSync(join(fx.project, ".awl", "agents"), { recursive: true });
  writeFileSync(join(fx.project, ".awl", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code without changing it\ntools: Read, Grep\nmodel: inherit\n---\nYou review; you never change files.\n");
  fx.server.respond = subagentModel([
    { blocks: [taskCall("review", { calls: [["write", { path: "x.txt", content: "no" }]], answer: "reviewed" }, "reviewer")] },
    { blocks: [{ type: "text", text: "reviewed" }] },
  ]);
  const agent = newAgent();
  const notices: string[] = [];
  await agent.runTurn("review it", never, (e) => e.type === "notice" && notices.push(e.text));
  expect(notices).toEqual([expect.stringContaining("tool Grep is not one awl has; ignored")]);
  const [parent] = fx.server.requests.filter((r) => !isChildRequest(r));
  const child = fx.server.requests.filter(isChildRequest);
  expect(child[0]!.body.tools.map((t: { name: string }) => t.name)).toEqual(["read"]);
  expect(systemText(child[0]!)).toContain("You review; you never change files.");
  // The child's write was refused unrun, as a tool it does not have.
  expect(JSON.stringify(child[1]!.body.messages.at(-1).content)).toContain("unknown tool write");
  const { existsSync } = await import("node:fs");
  expect(existsSync(join(fx.project, "x.txt"))).toBe(false);
  expect(parent!.body.tools.find((t: { name: string }) => t.name === "task").description).toContain("- reviewer: Reviews code without changing it");
  expect(systemText(parent!)).not.toContain("reviewer");
});

test("hooks fire for a child's calls with the child named, and SubagentStop when it ends", async () => {
  const { mkdirSync } = await import("node:fs");
  const log = join(fx.project, "hooks.log");
  mkdirSync(join(fx.env.XDG_CONFIG_HOME!, "awl"), { recursive: true });
  const hook = (event: string) => [{ hooks: [{ type: "command", command: `cat >> ${log}; echo >> ${log}` }], ...(event === "PreToolUse" ? { matcher: "*" } : {}) }];
  writeFileSync(join(fx.env.XDG_CONFIG_HOME!, "awl", "settings.json"), JSON.stringify({ hooks: { PreToolUse: hook("PreToolUse"), SubagentStop: hook("SubagentStop"), Stop: hook("Stop") } }));
  fx.server.respond = subagentModel([
    { blocks: [taskCall("look", { calls: [["read", { path: ".keep" }]], answer: "looked" })] },
    { blocks: [{ type: "text", text: "done" }] },
  ]);
  await newAgent().runTurn("look", never, () => {});
  const events = readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  expect(events.map((e) => [e.hook_event_name, e.tool_name, e.agent_name])).toEqual([
    ["PreToolUse", "Task", undefined],
    ["PreToolUse", "Read", "subagent"],
    ["SubagentStop", undefined, "subagent"],
    ["Stop", undefined, undefined],
  ]);
});

test("the extensions' handlers hear a child's calls as the parent's: a refusal before a call and a changed result after one reach the child", async () => {
  writeFileSync(join(fx.project, "secret.txt"), "the secret\n");
  writeFileSync(join(fx.project, "open.txt"), "open words\n");
  fx.server.respond = subagentModel([
    { blocks: [taskCall("peek", { calls: [["read", { path: "secret.txt" }], ["read", { path: "open.txt" }]], answer: "could not read it" })] },
    { blocks: [{ type: "text", text: "done" }] },
  ]);
  const heard: string[] = [];
  const { host } = hostWith([
    (awl) => {
      awl.on("before_tool_call", (call) => {
        heard.push(`before ${call.name}`);
        return call.name === "read" && (call.input as { path?: string }).path === "secret.txt" ? { refuse: "the guard keeps secret.txt" } : undefined;
      });
      awl.on("after_tool_call", (result) => {
        heard.push(`after ${result.name}`);
        return result.name === "read" ? { content: result.content.replace("open words", "OPEN WORDS") } : undefined;
      });
    },
  ]);
  const session = SessionManager.init({ cwd: fx.project, ...model });
  host.bind(session);
  const agent = new Agent({ session, cwd: fx.project, model, env: fx.env, seam: host.seam() });
  await agent.runTurn("peek", never, () => {});
  expect(heard).toEqual(["before task", "before read", "before read", "after read", "after task"]);
  const childResults = JSON.stringify(fx.server.requests.filter(isChildRequest).at(-1)!.body.messages.flatMap((m: { content: unknown }) => m.content));
  expect(childResults).toContain("the guard keeps secret.txt");
  expect(childResults).not.toContain("the secret");
  expect(childResults).toContain("OPEN WORDS");
});

test("Esc stops every child: each keeps what it had said, and its call's result says it was stopped", async () => {
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
  fx.server.respond = subagentModel([
    { blocks: [taskCall("one", { calls: [], answer: long, delayMs: 10 }), taskCall("two", { calls: [], answer: long, delayMs: 10 })] },
    { blocks: [{ type: "text", text: "after" }] },
  ]);
  const agent = newAgent();
  const controller = new AbortController();
  const streaming = new Set<string>();
  const result = await agent.runTurn("go", controller.signal, (e) => {
    // Stopped once both children have streamed some of their answers.
    if (e.type === "subagent" && e.event.type === "delta") streaming.add(e.id);
    if (streaming.size === 2 && !controller.signal.aborted) controller.abort();
  });
  expect(result.aborted).toBe(true);
  const lines = await logLines(agent.session.sessionFile);
  const results = lines.at(-1).message.content;
  const stopped = expect.stringMatching(/^Interrupted after it started: it may have changed files\. Its output so far:\nThe subagent was stopped\. What it had said:\nw/);
  expect(results.map((r: { content: string }) => r.content)).toEqual([stopped, stopped]);
  // Each child's cut answer is its own message in its wrapper, marked interrupted.
  const cut = lines.filter((l) => l.type === "child" && l.entry.type === "message" && l.entry.message.interrupted);
  expect(new Set(cut.map((l) => l.task)).size).toBe(2);
});

test("a session an older awl continued from a child entry (its leaf then) reads as if the child entry were bookkeeping", async () => {
  const { messageToDisk } = await import("../../src/session");
  const { readSessionTree, readWholeLog } = await import("../../src/session/tree");
  const s = SessionManager.init({ cwd: fx.project, ...model });
  s.appendMessage({ role: "system", content: [{ type: "text", text: "You are awl." }] });
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "delegate" }] }), model);
  const asked = s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "toolUse", id: "t1", name: "task", input: '{"description":"d","prompt":"p"}' }] }, { ...model, stopReason: "toolUse" }));
  const wrapper = s.appendChild("t1", { type: "message", id: "c1", parentId: null, timestamp: "2026-12-07T12:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "p" }] } });
  s.close();
  // What the previous release wrote next: the results, the child of the entry it took for the conversation.
  const results = { type: "message", id: "0ld0ld01", parentId: wrapper.id, timestamp: "2026-12-07T12:00:01.000Z", ...model, message: { role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: "done" }] } };
  writeFileSync(s.sessionFile, `${readFileSync(s.sessionFile, "utf8")}${JSON.stringify(results)}\n`);
  const session = await SessionManager.open(s.sessionFile, { readOnly: true });
  const branch = session.getBranch().map((e) => e.id);
  expect(branch.slice(-2)).toEqual([asked, "0ld0ld01"]);
  session.close();
  expect(readSessionTree(s.sessionFile).byId.get("0ld0ld01")!.parent!.id).toBe(asked);
  expect(readWholeLog(s.sessionFile).pathTo("0ld0ld01").map((e) => e.id)).toEqual(branch);
});
