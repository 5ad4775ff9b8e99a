// Compaction through the compiled binary: `awl -p` turns against a small
// window, `/compact` typed in the REPL, resume after compaction.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest, Reply } from "../support/server";
import { AWL, e2eFixture, sessionFiles } from "./awl";
import { hasTmux, Terminal } from "./tmux";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
let term: Terminal | undefined;
afterEach(async () => {
  term?.close();
  term = undefined;
  await fx.cleanup();
});

const NOTES = Array.from({ length: 40 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n");
const isSummary = (r: RecordedRequest) => r.rawBody.includes("You compact a coding session");

/** awl's REPL in tmux (the file's `term`, closed after each test), once each prompt has been answered. */
async function repl(prompts: string[]): Promise<Terminal> {
  const started = new Terminal();
  term = started;
  started.start([AWL], { cwd: fx.project, env: fx.env });
  await started.waitFor(/\/help for commands/);
  for (const prompt of prompts) {
    started.send(prompt);
    await started.waitFor(new RegExp(`› ${prompt}\\n[\\s\\S]*ctx \\d+% of 1\\.0M`));
  }
  return started;
}

/** Reads notes.txt on each prompt, then answers; writes a summary when asked. */
function readingModel(r: RecordedRequest): Reply {
  if (isSummary(r)) return { blocks: [{ type: "text", text: "## Goal\nRead notes.txt on every prompt." }] };
  const last = r.body.messages.at(-1);
  if (Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result")) return { blocks: [{ type: "text", text: "It is about a fox." }] };
  return { blocks: [{ type: "toolUse", name: "read", input: { path: "notes.txt" } }] };
}

const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("compaction through the binary", () => {
  test("awl -p turns against a small window: every turn succeeds, compactions are said on stderr and kept in the log, the file only grows", async () => {
    fx = await e2eFixture({ contextWindow: 5000, minCacheableTokens: 256 });
    fx.server.respond = readingModel;
    await Bun.write(join(fx.project, "notes.txt"), NOTES);
    const env = { AWL_CONTEXT_WINDOW: "5000" };
    let said = 0;
    let before = Buffer.alloc(0);
    for (let t = 0; t < 15; t++) {
      const run = await fx.run(["-p", `turn ${t}: read notes.txt`, ...(t ? ["--resume"] : [])], { env });
      expect({ t, code: run.code, stderr: run.stderr.replace(/● read.*\n/g, "").replace(/compacted \S+ -> \S+ tokens\n/g, "") }).toEqual({ t, code: 0, stderr: "" });
      expect(run.stdout).toBe("It is about a fox.\n");
      said += run.stderr.match(/compacted \S+ -> \S+ tokens/g)?.length ?? 0;
      const now = readFileSync(sessionFiles(fx.sessions)[0]!);
      expect(now.subarray(0, before.length).equals(before)).toBe(true);
      before = now;
    }
    const [file] = sessionFiles(fx.sessions);
    const entries = lines(file!).filter((l) => l.type === "compaction");
    expect(said).toBeGreaterThan(0);
    expect(entries).toHaveLength(said);
    expect(fx.server.requests.every((r) => r.status === 200)).toBe(true);

    const listed = await fx.run(["sessions", "--plain"]);
    expect(listed.stdout).toMatch(new RegExp(`${lines(file!).filter((l) => l.type === "message").length} messages, ${said} compactions?  turn 0: read notes\\.txt\\n`)); // and the first prompt's title
  });

  test.skipIf(!hasTmux)("/compact in the REPL: a spinner, one line for the compaction, and a resume that opens with it", async () => {
    fx = await e2eFixture();
    fx.server.respond = readingModel;
    await Bun.write(join(fx.project, "notes.txt"), NOTES);
    term = await repl(["first: read notes.txt", "second: read notes.txt"]);
    term.type("/compact the fox's colour");
    term.keys("Enter");
    let screen = await term.waitFor(/compacted \S+ -> \S+ tokens\n.*ctx \d+% of 1\.0M/);
    expect(fx.server.requests.at(-1)!.rawBody).toContain("the fox's colour");
    term.type("/session");
    term.keys("Enter");
    screen = await term.waitFor(/Context\s+ctx \d+% of 1\.0M · 1 compaction[\s\S]*›\s*$/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    term = new Terminal();
    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env });
    screen = await term.waitFor(/\/help for commands/);
    expect(screen).toContain("… 1 compaction, 1 turn summarized");
    expect(screen).not.toContain("<summary>");
    expect(screen).toContain("second: read notes.txt");
    // Up walks back through what was typed here (the history every session shares, commands too), never the summary.
    term.keys("Up", "Up", "Up");
    await term.waitFor(/\/help for commands\n› second: read notes\.txt\s*$/);
    term.keys("C-c"); // clears the line
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test.skipIf(!hasTmux)("/compact runs the person's PreCompact hooks first, told it is manual and what to keep", async () => {
    fx = await e2eFixture();
    fx.server.respond = readingModel;
    await Bun.write(join(fx.project, "notes.txt"), NOTES);
    const heard = join(fx.root, "precompact.json");
    // The person's settings file where $XDG_CONFIG_HOME is unset: ~/.config/awl/settings.json.
    await Bun.write(join(fx.home, ".config", "awl", "settings.json"), JSON.stringify({ hooks: { PreCompact: [{ matcher: "manual", hooks: [{ type: "command", command: `cat > ${heard}` }] }] } }));
    term = await repl(["first: read notes.txt", "second: read notes.txt"]);
    term.type("/compact the fox's colour");
    term.keys("Enter");
    await term.waitFor(/compacted \S+ -> \S+ tokens/);
    expect(JSON.parse(readFileSync(heard, "utf8"))).toMatchObject({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "the fox's colour" });
  });

  test.skipIf(!hasTmux)("/compact whose summary would make the context larger keeps the context it had, and says so", async () => {
    fx = await e2eFixture();
    const LONG = Array.from({ length: 400 }, (_, i) => `Point ${i}: the person said hello and was answered.`).join("\n");
    fx.server.respond = (r) => ({ blocks: [{ type: "text", text: isSummary(r) ? LONG : "Hello." }] });
    term = await repl(["hi", "hi again"]);
    term.type("/compact");
    term.keys("Enter");
    const screen = await term.waitFor(/not compacted: the summary would make the context larger \([\d,]+ -> [\d,]+ tokens\); the context stays as it was/);
    expect(screen).not.toContain("compacted 1");
    expect(lines(sessionFiles(fx.sessions)[0]!).filter((l) => l.type === "compaction")).toEqual([]);
    term.type("/session");
    term.keys("Enter");
    await term.waitFor(/Context\s+ctx \d+% of 1\.0M · 0 compactions[\s\S]*›\s*$/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe("a turn that outgrows the window by itself", () => {
  /** 20 rounds of reading a different 3.5 KB file each, then an answer; writes a summary when asked. */
  function longLoop(r: RecordedRequest): Reply {
    if (/You compact a coding session|about to be compacted/.test(r.rawBody)) return { blocks: [{ type: "text", text: "## Goal\nRead every part." }] };
    // The rounds of this turn: tool results since its prompt (a compaction keeps the whole turn).
    const messages: { role: string; content: unknown }[] = r.body.messages;
    const start = messages.findLastIndex((m) => m.role === "user" && /remember this|read part0/.test(JSON.stringify(m.content)));
    if (!JSON.stringify(messages[start]).includes("read part0")) return { blocks: [{ type: "text", text: "Noted." }] };
    const results = messages.slice(start).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b: { type: string }) => b.type === "tool_result").length;
    if (results >= 20) return { blocks: [{ type: "text", text: "Read all twenty parts." }] };
    return { blocks: [{ type: "toolUse", name: "read", input: { path: `part${results}.txt` } }] };
  }

  test("a 20-round loop of 3.5 KB results in a 24k window: the answer's max_tokens is lowered to what the window leaves, and the turn ends as the model chose", async () => {
    fx = await e2eFixture({ contextWindow: 24_000, overflowStyle: { anthropic: "input_and_max_tokens" } });
    fx.server.respond = longLoop;
    for (let i = 0; i < 20; i++) await Bun.write(join(fx.project, `part${i}.txt`), `part ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(80)}`);
    const env = { AWL_CONTEXT_WINDOW: "24000" };
    // An earlier turn gives compaction something to summarize.
    expect((await fx.run(["-p", `remember this: ${"an earlier request, long enough to be worth compacting ".repeat(60)}`], { env })).code).toBe(0);
    const run = await fx.run(["-p", "read part0.txt to part19.txt, one at a time", "--resume"], { env });
    expect(run).toMatchObject({ code: 0, stdout: "Read all twenty parts.\n" });
    expect(run.stderr).not.toContain("too long");
    // Refused for input and max_tokens together, the request went again asking for what the window leaves: never below 1,024.
    const asked = fx.server.requests.filter((r) => r.status === 200 && !/about to be compacted|You compact/.test(r.rawBody)).map((r) => r.body.max_tokens);
    expect(asked.some((n: number) => n < 6000 && n >= 1024)).toBe(true);
    expect(fx.server.requests.at(-1)!.status).toBe(200);
  }, 120_000);

  test("when even the least answer does not fit beside the turn, the turn ends with one line that says what to do", async () => {
    fx = await e2eFixture({ contextWindow: 12_000, overflowStyle: { anthropic: "input_and_max_tokens" } });
    fx.server.respond = longLoop;
    for (let i = 0; i < 20; i++) await Bun.write(join(fx.project, `part${i}.txt`), `part ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(80)}`);
    const run = await fx.run(["-p", "read part0.txt to part19.txt, one at a time"], { env: { AWL_CONTEXT_WINDOW: "12000" } });
    expect(run.code).toBe(1);
    const errors = run.stderr.split("\n").filter((l) => l.startsWith("awl:"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("this turn alone fills the model's context window, even compacted: start a new session and ask for the work in smaller steps, or use a model with a larger window");
  }, 120_000);
});
