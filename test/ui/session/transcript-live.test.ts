// Issue 12, item 9: the transcript a resumed session opens with shows each
// turn as it was shown live. Real turns (the Agent, real tools, a real
// session file, the strict test server) are rendered live by the REPL's
// renderer; the session is then opened from its file, as --resume does, and
// its transcript must hold the same lines: answers, tool lines with their
// previews and diffs, errors, "Interrupted.", the usage line.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../../src/agent/agent";
import type { AgentEvent } from "../../../src/agent/events";
import { SessionManager } from "../../../src/session";
import type { Colors } from "../../../src/ui/render/colors";
import { TurnRenderer } from "../../../src/ui/live/render";
import { renderTranscript } from "../../../src/ui/session/transcript";
import { useAgentFixture } from "../../agent/helpers";
import { colored, plain, unstyled } from "../../support/terminal-text";

const fx = useAgentFixture();

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const COLUMNS = 100;

/** One turn, shown as the REPL shows it (what it writes, not counting the rows under it); `abortOn` interrupts it. */
async function liveTurn(agent: Agent, prompt: string, c: Colors, abortOn?: (e: AgentEvent) => boolean): Promise<string[]> {
  let written = "";
  const renderer = new TurnRenderer({ write: (s: string) => (written += s), isTTY: false, columns: COLUMNS }, c);
  const controller = new AbortController();
  const result = await agent.runTurn(prompt, controller.signal, (e) => {
    renderer.handle(e);
    if (abortOn?.(e)) controller.abort();
  });
  renderer.finish(result);
  return [`${c.bold(c.green("›"))} ${prompt}`, ...written.replace(/\n$/, "").split("\n")];
}

/** The session opened again from its file, as --resume opens it, and its transcript's lines. */
async function resumed(agent: Agent, c: Colors): Promise<string[]> {
  const file = agent.session.sessionFile;
  agent.session.close();
  const session = await SessionManager.open(file);
  try {
    return renderTranscript(session, c, COLUMNS, {}, fx.env).split("\n");
  } finally {
    session.close();
  }
}

describe.each([
  ["colour off", plain],
  ["colour on", colored],
] as const)("a resumed session's turns look as they did live (%s)", (_, c) => {
  test("tools with their previews and diffs, an answer, usage lines; an error; an interruption mid-answer and one mid-command", async () => {
    await Bun.write(join(fx.project, "f.ts"), Array.from({ length: 10 }, (_, i) => `const v${i + 1} = ${i + 1};`).join("\n") + "\n");
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env });
    const oldText = ["const v2 = 2;", "const v3 = 3;", "const v4 = 4;", "const v5 = 5;", "const v6 = 6;", "const v7 = 7;", "const v8 = 8;"].join("\n");
    fx.server.reply(
      { blocks: [{ type: "text", text: "Let me look." }, { type: "toolUse", name: "bash", input: { command: "printf 'one\\ntwo\\n\\tthree\\nfour\\n'" } }] },
      { blocks: [{ type: "toolUse", name: "edit", input: { path: "f.ts", oldText, newText: oldText.replace("v5 = 5", "v5 = 50") } }, { type: "toolUse", name: "write", input: { path: "new.md", content: "# New\n\nA new file.\n" } }] },
      { blocks: [{ type: "toolUse", name: "read", input: { path: "missing.txt" } }] },
      { blocks: [{ type: "text", text: "Changed **v5** and wrote `new.md`:\n\n- one\n- two" }] },
      // An error after part of an answer was shown.
      { blocks: [{ type: "text", text: "Starting a long answer that will be cut off by the network." }], fault: { midStream: "drop", afterEvents: 6 } },
      // Interrupted while the answer streams.
      { blocks: [{ type: "text", text: "word ".repeat(300) }], chunk: 5, delayMs: 5 },
      // Interrupted while a command runs: its output so far, then the next call is not run.
      { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo started; sleep 30" } }, { type: "toolUse", name: "bash", input: { command: "echo never" } }] },
      // Refused before any answer: the prompt stays, unanswered, and goes with the next one.
      { fault: { status: 401, errorType: "authentication_error", message: "invalid x-api-key" } },
    );
    const live = [
      ...(await liveTurn(agent, "change v5", c)),
      ...(await liveTurn(agent, "explain at length", c)),
      ...(await liveTurn(agent, "talk", c, (e) => e.type === "delta")),
      ...(await liveTurn(agent, "run it", c, (e) => e.type === "toolOutput" && e.tail.includes("started"))),
      ...(await liveTurn(agent, "a prompt refused", c)),
    ];
    const transcript = await resumed(agent, c);
    expect(transcript).toEqual(live);

    // What the comparison covers, read plainly.
    const text = unstyled(live.join("\n"));
    expect(text).toContain("● bash printf 'one\\ntwo\\n\\tthree\\nfour\\n'\n  ⎿ one\n    two\n            three\n    four\n    exit code: 0");
    expect(text).toContain("● edit f.ts\n  ⎿ edited f.ts: lines 2-8 replaced, now lines 2-8\n    @@ -2,7 +2,7 @@\n     const v2 = 2;");
    expect(text).toContain("    -const v5 = 5;\n    +const v5 = 50;");
    expect(text).toContain("● write new.md\n  ⎿ created new.md (19 bytes)\n    +# New\n    +\n    +A new file.");
    expect(text).toContain("● read missing.txt\n  ⎿ missing.txt: no such file");
    expect(text).toMatch(/\n(- two|  • two)\n↑ [\d.]+k in \([\d.]+k cached\) · ↓ \d+ out · ctx \d+% of 200k\n/);
    expect(text).toMatch(/\nStarting\nThe connection to Anthropic \(.*\) failed: [^↑]*\n↑ [^\n]* · ↓ ~3 out/); // the answer so far, then the error (wrapped at the width, as live); its tokens estimated
    expect(text).toContain("Interrupted.");
    expect(text).toMatch(/› a prompt refused\n[^\n]*401[^\n]*\nNo answer: this prompt stays in the conversation and goes to the model with your next one\./);
    expect(text.split("No answer: ").length - 1).toBe(1); // not after an answer cut off part-way
    // Cut off after its first delta ("word "): not the 1 token Anthropic's first event says, but what had streamed, as an estimate.
    expect(text).toMatch(/› talk\nword\nInterrupted\.\n↑ [^\n]* in[^\n]* · ↓ ~2 out · ctx/);
    expect(text).toContain("● bash echo started; sleep 30\n  ⎿ started\n    interrupted; the command and everything it started were killed\n● bash echo never\n  ⎿ Interrupted: this tool call was not run.\nInterrupted.");
    expect(existsSync(join(fx.project, "new.md"))).toBe(true);
  });
});

test("an overwriting write is shown on resume as live: the diff of the versions its checkpoint kept", async () => {
  await Bun.write(join(fx.project, "a.txt"), "old\n");
  const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "write", input: { path: "a.txt", content: "new\n" } }] }, { blocks: [{ type: "text", text: "ok" }] });
  const live = await liveTurn(agent, "rewrite", plain);
  expect(live.slice(1, 5)).toEqual(["● write a.txt", "  ⎿ overwrote a.txt (4 bytes)", "    @@ -1,1 +1,1 @@", "    -old"]);
  const transcript = await resumed(agent, plain);
  expect(transcript).toEqual(live);
  expect(readFileSync(join(fx.project, "a.txt"), "utf8")).toBe("new\n");
});

test("the effort a turn ran at is on its usage line, live and resumed alike", async () => {
  const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env, effort: "low" });
  fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
  const live = await liveTurn(agent, "hi", plain);
  expect(live.some((line) => /^↑ .* · effort low$/.test(line))).toBe(true);
  expect(await resumed(agent, plain)).toEqual(live);
});
