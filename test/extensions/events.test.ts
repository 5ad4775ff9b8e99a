// The session's events as extensions handle them (docs/extensions.md),
// through the real Agent against the test server, with the person's hooks
// beside them: each handler fires at its moment with its data, in the
// documented order (the handlers first, then the hooks of the same moment,
// which see what the handlers changed); a prompt changed or refused; a tool
// call's input changed (checked, asked about and recorded before it runs) or
// refused when the change is not an input its tool takes; a result changed
// for the model and the log; a compaction refused; a move told after the
// state follows it; and a handler that fails, other than before a tool call,
// named once while the turn goes on.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { Approvals, type ApprovalRequest } from "../../src/agent/approval";
import { moveTo } from "../../src/agent/branch";
import { PromptTooLarge } from "../../src/agent/prompt-size";
import type { AgentEvent } from "../../src/agent/events";
import type { Awl } from "../../src/extensions/api";
import type { ExtensionHost } from "../../src/extensions/host";
import { SessionManager } from "../../src/session";
import { logLines, useAgentFixture } from "../agent/helpers";
import { hostWith as loadedHost } from "../support/extension-host";

const fx = useAgentFixture();
const MODEL = { provider: "anthropic", model: "claude-sonnet-4-5" };

/** A host with these modules loaded, each handler given 2 s. */
const hostWith = (...modules: ((awl: Awl) => void)[]) => loadedHost(modules, { AWL_HANDLER_TIMEOUT: "2000" });

function agentWith(host: ExtensionHost, o: { approvals?: Approvals; session?: SessionManager } = {}): Agent {
  const session = o.session ?? SessionManager.init({ cwd: fx.project, ...MODEL });
  host.bind(session);
  return new Agent({ session, cwd: fx.project, model: MODEL, env: fx.env, seam: host.seam(), ...(o.approvals ? { approvals: o.approvals } : {}) });
}

async function run(agent: Agent, prompt: string, ask?: (request: ApprovalRequest) => void) {
  const events: AgentEvent[] = [];
  const result = await agent.runTurn(prompt, new AbortController().signal, (e) => events.push(e), ask && (async (request) => (ask(request), { kind: "yes" })));
  return { result, events };
}

/** The person's hooks: each appends what it is given (one JSON line) to a file named after its event. */
function hooksLogging(...events: string[]): (event: string) => any[] {
  const dir = join(fx.env.XDG_CONFIG_HOME!, "awl");
  mkdirSync(dir, { recursive: true });
  const log = (event: string) => join(dir, `${event}.jsonl`);
  const hooks = Object.fromEntries(events.map((event) => [event, [{ hooks: [{ type: "command", command: `cat >> '${log(event)}'; echo >> '${log(event)}'` }] }]]));
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ hooks }));
  return (event) => (existsSync(log(event)) ? readFileSync(log(event), "utf8").trim().split("\n").map((line) => JSON.parse(line)) : []);
}

/** Every text the model was sent in request `i`, as JSON. */
const sent = (i: number) => JSON.stringify(fx.server.requests[i]!.body.messages);

test("every event fires at its moment with its data, in order, and what it wrote is in the log after the turn", async () => {
  const seen: [string, unknown][] = [];
  const { host, named } = hostWith((awl) => {
    for (const event of ["session_start", "before_prompt", "before_tool_call", "after_tool_call", "before_request", "turn_end"] as const) {
      awl.on(event, (e: unknown) => void seen.push([event, e]));
    }
    awl.on("turn_end", () => awl.appendEntry("turns", { ended: true }));
  });
  const agent = agentWith(host);
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo hi" } }] }, { blocks: [{ type: "text", text: "Done." }] });
  const { result, events } = await run(agent, "say hi");
  expect(result.stopReason).toBe("stop");
  expect(seen).toEqual([
    ["session_start", { sessionId: agent.session.sessionId, cwd: fx.project, resumed: false }],
    ["before_prompt", { text: "say hi" }],
    ["before_request", { provider: "anthropic", model: "claude-sonnet-4-5", messages: 1 }],
    ["before_tool_call", { name: "bash", input: { command: "echo hi" } }],
    ["after_tool_call", { name: "bash", input: { command: "echo hi" }, content: "hi\nexit code: 0", isError: false }],
    ["before_request", { provider: "anthropic", model: "claude-sonnet-4-5", messages: 3 }],
    ["turn_end", { stopReason: "stop" }],
  ]);
  // What turn_end wrote is the turn's last entry, and whoever shows the turn was given it.
  const lines = await logLines(agent.session.sessionFile);
  expect(lines.at(-1)).toMatchObject({ type: "custom", customType: "turns", data: { ended: true } });
  expect(events.filter((e) => e.type === "extensionEntries").flatMap((e) => (e.type === "extensionEntries" ? e.entries.map((x) => x.customType) : []))).toEqual(["turns"]);
  expect(named).toEqual([]);

  // A session that already holds a conversation starts resumed.
  agent.session.close();
  const again = await SessionManager.open(agent.session.sessionFile);
  const resumed = agentWith(host, { session: again });
  await resumed.start(new AbortController().signal);
  expect(seen.at(-1)).toEqual(["session_start", { sessionId: agent.session.sessionId, cwd: fx.project, resumed: true }]);
  again.close();
});

test("a prompt changed is the prompt written, sent and given to the hooks; one refused is neither written nor sent, and the person reads why", async () => {
  const hooked = hooksLogging("UserPromptSubmit");
  const { host } = hostWith((awl) =>
    awl.on("before_prompt", ({ text }) => {
      if (text.includes("secret")) return { refuse: "prompts with secrets stay here" };
      return { text: `${text} (reviewed)` };
    }),
  );
  const agent = agentWith(host);
  fx.server.reply({ blocks: [{ type: "text", text: "Fine." }] });
  expect((await run(agent, "check the build")).result.stopReason).toBe("stop");
  expect(sent(0)).toContain("check the build (reviewed)");
  const prompt = (await logLines(agent.session.sessionFile)).find((l) => l.type === "message" && l.message.role === "user");
  expect(prompt.message.content).toEqual([{ type: "text", text: "check the build (reviewed)" }]);
  expect(hooked("UserPromptSubmit").map((h) => h.prompt)).toEqual(["check the build (reviewed)"]);

  const before = (await logLines(agent.session.sessionFile)).length;
  const { result, events } = await run(agent, "here is my secret");
  expect(result).toMatchObject({ promptBlocked: true, stopReason: "error", errorMessage: "the /ext/0.ts extension refused this prompt: prompts with secrets stay here" });
  expect(events).toContainEqual({ type: "end", stopReason: "error", errorMessage: result.errorMessage });
  expect(fx.server.requests).toHaveLength(1);
  expect((await logLines(agent.session.sessionFile)).length).toBe(before);
  expect(hooked("UserPromptSubmit")).toHaveLength(1); // a refused prompt reaches no hook
});

test("a changed input is checked again, asked about and recorded as changed before the call runs; the hooks see it changed", async () => {
  const hooked = hooksLogging("PreToolUse");
  const { host } = hostWith((awl) =>
    awl.on("before_tool_call", (call) => {
      const command = (call.input as { command?: string }).command ?? "";
      if (command.includes("original")) return { input: { command: "echo changed > changed.txt" } };
      if (command.includes("broken")) return { input: { command: 42 } };
    }),
  );
  const asked: string[] = [];
  const agent = agentWith(host, { approvals: new Approvals("ask", fx.env) });
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo original > original.txt" } }] },
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "touch broken.txt" } }] },
    { blocks: [{ type: "text", text: "Done." }] },
  );
  await run(agent, "write files", (request) => asked.push(request.effect.kind === "exec" ? request.effect.command : request.effect.kind));

  // Asked about, run and shown to the hook as changed; the original never ran.
  expect(asked).toEqual(["echo changed > changed.txt"]);
  expect(existsSync(join(fx.project, "changed.txt"))).toBe(true);
  expect(existsSync(join(fx.project, "original.txt"))).toBe(false);
  expect(hooked("PreToolUse").map((h) => h.tool_input.command)).toEqual(["echo changed > changed.txt"]);

  // Recorded between the call and its result, naming the extension; the model is told what ran.
  const lines = await logLines(agent.session.sessionFile);
  const call = lines.findIndex((l) => l.type === "message" && l.message.content.some((b: { type: string }) => b.type === "toolUse"));
  const useId = lines[call].message.content.find((b: { type: string }) => b.type === "toolUse").id;
  expect(lines[call + 1]).toMatchObject({ type: "custom", customType: "extension", data: { event: "before_tool_call", extensions: ["/ext/0.ts"], toolUseId: useId, updatedInput: { command: "echo changed > changed.txt" } } });
  const ran = lines.slice(call).find((l) => l.type === "message" && l.message.role === "user");
  expect(ran.message.content[0].content).toStartWith(`The /ext/0.ts extension changed this call's input to {"command":"echo changed > changed.txt"}.`);

  // An input its tool does not take: refused unrun, nothing recorded, and the model reads why.
  const refused = lines.at(-2).message.content[0];
  expect(refused.isError).toBe(true);
  expect(refused.content).toStartWith("refused: the /ext/0.ts extension changed this call's input to one bash does not take (");
  expect(existsSync(join(fx.project, "broken.txt"))).toBe(false);
  expect(lines.filter((l) => l.type === "custom" && l.customType === "extension")).toHaveLength(1);
  expect(asked).toHaveLength(1);
});

test("a result changed is what the model reads next and what the log keeps", async () => {
  const { host } = hostWith((awl) => awl.on("after_tool_call", (r) => (r.name === "bash" ? { content: r.content.replace(/hunter2/g, "[hidden]") } : undefined)));
  const agent = agentWith(host);
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo password=hunter2" } }] }, { blocks: [{ type: "text", text: "Done." }] });
  const { events } = await run(agent, "show the password");
  const result = fx.server.requests[1]!.body.messages.at(-1).content[0];
  expect(result).toMatchObject({ type: "tool_result", content: "password=[hidden]\nexit code: 0" });
  const results = (await logLines(agent.session.sessionFile)).filter((l) => l.type === "message" && l.message.content.some((b: { type: string }) => b.type === "toolResult"));
  expect(results.map((l) => l.message.content[0].content)).toEqual(["password=[hidden]\nexit code: 0"]);
  // What is shown is what is written.
  expect(events.find((e) => e.type === "toolEnd")).toMatchObject({ output: { content: "password=[hidden]\nexit code: 0" } });
});

test("a handler that throws or never answers, other than before a tool call, is named once and the turn goes on as if it returned nothing", async () => {
  const { host, named } = hostWith(
    (awl) => {
      awl.on("before_request", () => {
        throw new Error("the counter broke");
      });
      awl.on("after_tool_call", () => new Promise(() => {})); // never answers
      awl.on("before_prompt", () => {
        throw new Error("the reviewer broke");
      });
    },
    (awl) => awl.on("after_tool_call", (r) => ({ content: `${r.content}(seen)` })),
  );
  const agent = agentWith(host);
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo one" } }] },
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo two" } }] },
    { blocks: [{ type: "text", text: "Done." }] },
  );
  const { result } = await run(agent, "count");
  expect(result.stopReason).toBe("stop");
  expect(sent(0)).toContain('"count"'); // the prompt as typed
  expect(sent(2)).toContain("two\\nexit code: 0(seen)"); // the next handler still changed the result
  expect(named).toEqual([
    "/ext/0.ts: its handler before a prompt failed: the reviewer broke",
    "/ext/0.ts: its handler before a request failed: the counter broke",
    "/ext/0.ts: its handler after a tool call did not finish in 2 s",
  ]);
}, 20_000);

test("a compaction refused: /compact says who refused it, and a turn that would compact goes on without it", async () => {
  Object.assign(fx.env, { AWL_CONTEXT_WINDOW: "6000" });
  const { host, named } = hostWith((awl) => awl.on("before_compaction", ({ trigger }) => ({ refuse: `not now (${trigger})` })));
  const agent = agentWith(host);
  fx.server.respond = () => ({ blocks: [{ type: "text", text: "Noted." }] });
  const long = "word ".repeat(900);
  let skipped: AgentEvent | undefined;
  for (let t = 0; !skipped; t++) {
    expect(t).toBeLessThan(10);
    const { result, events } = await run(agent, `turn ${t}: ${long}`);
    expect(result.stopReason).toBe("stop");
    skipped = events.find((e) => e.type === "compactSkipped");
  }
  expect(skipped).toEqual({ type: "compactSkipped", reason: "the /ext/0.ts extension refused it: not now (auto)" });
  const events: AgentEvent[] = [];
  const manual = await agent.compact(new AbortController().signal, (e) => events.push(e));
  expect(manual).toEqual({ compacted: false, reason: "the /ext/0.ts extension refused it: not now (manual)" });
  expect(events).toContainEqual({ type: "compactSkipped", reason: manual.compacted ? "" : manual.reason });
  expect((await logLines(agent.session.sessionFile)).some((l) => l.type === "compaction")).toBe(false);
  expect(named).toEqual([]);
});

test("after a move the handler is told the new leaf, and the extension's state is already the new path's", async () => {
  const told: unknown[] = [];
  const { host } = hostWith((awl) => {
    const turns = awl.state("turns", () => 0, (n) => n + 1);
    awl.on("turn_end", () => awl.appendEntry("turns", {}));
    awl.on("after_move", (e) => void told.push({ ...e, turns: turns.get() }));
  });
  const agent = agentWith(host);
  fx.server.reply({ blocks: [{ type: "text", text: "One." }] }, { blocks: [{ type: "text", text: "Two." }] });
  await run(agent, "first");
  await run(agent, "second");
  const answers = (await logLines(agent.session.sessionFile)).filter((l) => l.type === "message" && l.message.role === "assistant");
  await moveTo(agent, answers[1].id); // the second answer: its turn's entry comes after it
  expect(told).toEqual([{ kind: "tree", leafId: answers[1].id, turns: 1 }]);
  await agent.moved("rewind", new AbortController().signal);
  expect(told.at(-1)).toEqual({ kind: "rewind", leafId: answers[1].id, turns: 1 });
});

test("a turn that throws (a prompt larger than the window) still tells turn_end's handlers, with stopReason error", async () => {
  const ended: unknown[] = [];
  const { host, named } = hostWith((awl) => awl.on("turn_end", (e) => void ended.push(e)));
  fx.env.AWL_CONTEXT_WINDOW = "8000";
  const agent = agentWith(host);
  const error = await run(agent, "word ".repeat(12_000)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PromptTooLarge);
  expect(ended).toEqual([{ stopReason: "error" }]);
  expect(fx.server.requests).toHaveLength(0);
  expect(named).toEqual([]);
});

test("a turn stopped with Esc still tells turn_end's handlers, and one that fails then is named: the stop came before it ran", async () => {
  const ended: unknown[] = [];
  const { host, named } = hostWith((awl) =>
    awl.on("turn_end", (e) => {
      ended.push(e);
      throw new Error("the counter file is gone");
    }),
  );
  const agent = agentWith(host);
  fx.server.reply({ blocks: [{ type: "text", text: "a long answer ".repeat(40) }], chunk: 8, delayMs: 20 });
  const stop = new AbortController();
  const result = await agent.runTurn("go", stop.signal, (e) => {
    if (e.type === "delta") stop.abort();
  });
  expect(result.aborted).toBe(true);
  expect(ended).toEqual([{ stopReason: "error" }]);
  expect(named).toEqual(["/ext/0.ts: its handler at a turn's end failed: the counter file is gone"]);
});
