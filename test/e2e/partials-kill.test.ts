// kill -9 of `awl -p --json` while a long answer streams slowly: the partial
// lines it printed are on disk (docs/session-format.md, "partial"), so
// `awl --resume` goes on with that answer as the assistant's message, marked
// interrupted, and the strict test server accepts the request, on each
// protocol, thinking included.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { checkStream, fileText } from "./json-stream";

const fx = useE2eFixture();

const THOUGHT = "Counting slowly, one number at a time, as asked.";
const ANSWER = Array.from({ length: 200 }, (_, i) => `number ${i + 1}`).join(", ") + ".";
/** The kill comes once this many partials of the answer's text were printed. */
const NTH = 2;

const PROTOCOLS: { name: string; args: string[]; env: Record<string, string>; assistantText: (body: any) => string }[] = [
  { name: "Anthropic", args: ["--thinking"], env: {}, assistantText: (body: any) => texts(body.messages.findLast((m: any) => m.role === "assistant").content) },
  {
    name: "Chat Completions",
    args: ["--provider", "openai", "--model", "gpt-4o"],
    env: { AWL_OPENAI_API: "chat" },
    assistantText: (body: any) => texts(body.messages.findLast((m: any) => m.role === "assistant").content),
  },
  {
    name: "Responses",
    args: ["--provider", "openai", "--model", "gpt-5-mini", "--thinking"],
    env: { AWL_OPENAI_API: "responses" },
    assistantText: (body: any) => texts(body.input.findLast((i: any) => i.role === "assistant").content),
  },
];

/** A message's text, whether the wire holds a string or a list of parts. */
function texts(content: string | { text?: string }[]): string {
  return typeof content === "string" ? content : content.map((p) => p.text ?? "").join("");
}

/** Runs `awl -p --json` and kills it with SIGKILL once its stdout has shown `n` partials holding text (of `attempt` when given); its stdout so far. */
async function killAfterPartials(args: string[], env: Record<string, string>, n: number, attempt?: number): Promise<string[]> {
  const child = Bun.spawn([AWL, ...args], { cwd: fx.project, env: { ...fx.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const lines: string[] = [];
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    rest += decoder.decode(chunk, { stream: true });
    const parts = rest.split("\n");
    rest = parts.pop()!;
    lines.push(...parts);
    const counted = lines.filter((l) => l.startsWith('{"type":"partial"')).map((l) => JSON.parse(l)).filter((p) => p.text !== undefined && (attempt === undefined || p.attempt === attempt));
    if (counted.length >= n) {
      child.kill("SIGKILL");
      break;
    }
  }
  await child.exited;
  expect(child.signalCode).toBe("SIGKILL");
  return lines;
}

describe("kill -9 while the answer streams", () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol.name}: --resume goes on with the partials' text as the interrupted answer, and the request is accepted`, async () => {
      fx.server.reply({ blocks: [{ type: "thinking", thinking: THOUGHT }, { type: "text", text: ANSWER }], chunk: 6, delayMs: 40 });
      const printed = await killAfterPartials(["-p", "count to two hundred", "--json", ...protocol.args], protocol.env, NTH);
      const printedText = printed
        .filter((l) => l.startsWith('{"type":"partial"'))
        .map((l) => JSON.parse(l).text ?? "")
        .join("");
      expect(printedText.length).toBeGreaterThan(0);
      // What the file holds: a prefix of the answer that starts with what was printed, and no message for it.
      const [file] = sessionFiles(fx.sessions);
      const lines = readFileSync(file!, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      const kept = lines.filter((l) => l.type === "partial" && l.text !== undefined).map((l) => l.text).join("");
      expect(kept.startsWith(printedText)).toBe(true);
      expect(ANSWER.startsWith(kept)).toBe(true);
      expect(lines.some((l) => l.message?.role === "assistant")).toBe(false);
      // awl sessions tree draws it under the prompt (the leaf), marked interrupted.
      const tree = await fx.run(["sessions", "tree", lines[0].id]);
      expect(tree.code).toBe(0);
      const rows = tree.stdout.trimEnd().split("\n");
      expect(rows.at(-2)).toMatch(/^◉ [0-9a-f]{8} \d\d:\d\d you +count to two hundred$/);
      expect(rows.at(-1)).toMatch(/^◌ {10}\d\d:\d\d awl +number 1, number 2.*\(interrupted\)$/);

      fx.server.reply({ blocks: [{ type: "text", text: "number 201." }] });
      const before = fileText(fx);
      const child = Bun.spawn([AWL, "--resume", "-p", "go on", "--json", ...protocol.args], { cwd: fx.project, env: { ...fx.env, ...protocol.env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      const { result, lines: streamed } = checkStream(fx, before, { code, stdout, stderr });
      expect(result.status).toBe("ok");
      const request = fx.server.requests.at(-1)!;
      expect(request.status).toBe(200);
      expect(protocol.assistantText(request.body)).toBe(kept);
      // Written first, marked interrupted, then the prompt, then the new answer.
      const written = streamed
        .slice(1, -1)
        .map((l) => JSON.parse(l))
        .filter((l) => l.type === "message");
      expect(written.map((l) => l.message.role)).toEqual(["assistant", "user", "assistant"]);
      expect(written[0].message).toMatchObject({ content: [{ type: "text", text: kept }], stopReason: "error", interrupted: true });
      expect(written[0].message.usage).toBeUndefined();
    });
  }

  test("during a tool loop's second answer: the first answer and its tool results are intact, the second is interrupted, no tool runs again", async () => {
    fx.server.reply(
      { blocks: [{ type: "text", text: "Marking it." }, { type: "toolUse", id: "toolu_mark", name: "bash", input: { command: "echo ran >> ran.txt" } }] },
      { blocks: [{ type: "text", text: ANSWER }], chunk: 6, delayMs: 40 },
    );
    await killAfterPartials(["-p", "mark it, then count", "--json"], {}, NTH);
    fx.server.reply({ blocks: [{ type: "text", text: "number 201." }] });
    const run = await fx.run(["--resume", "-p", "go on"]);
    expect(run.code).toBe(0);
    const request = fx.server.requests.at(-1)!;
    expect(request.status).toBe(200);
    const messages = request.body.messages;
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(messages[1].content.map((b: any) => b.type)).toEqual(["text", "tool_use"]);
    expect(messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_mark" });
    const second = texts(messages[3].content);
    expect(second.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(second)).toBe(true);
    expect(readFileSync(`${fx.project}/ran.txt`, "utf8")).toBe("ran\n");
  });

  test("during a retried request: the resumed answer is the retry's text only", async () => {
    fx.server.reply({ fault: { status: 529 } }, { blocks: [{ type: "text", text: ANSWER }], chunk: 6, delayMs: 40 });
    await killAfterPartials(["-p", "count", "--json"], {}, NTH);
    const [file] = sessionFiles(fx.sessions);
    const partials = readFileSync(file!, "utf8").split("\n").filter((l) => l.startsWith('{"type":"partial"')).map((l) => JSON.parse(l));
    expect(new Set(partials.map((p) => p.attempt))).toEqual(new Set([2]));
    fx.server.reply({ blocks: [{ type: "text", text: "number 201." }] });
    expect((await fx.run(["--resume", "-p", "go on"])).code).toBe(0);
    const request = fx.server.requests.at(-1)!;
    expect(request.status).toBe(200);
    expect(texts(request.body.messages.at(-2).content)).toBe(partials.map((p) => p.text).join(""));
  });

  test("during an answer started again after the API said overloaded mid-stream: the resumed answer is the second answer's text only", async () => {
    const first = Array.from({ length: 100 }, (_, i) => `draft ${i + 1}`).join(", ");
    // The first answer streams for seconds (a partial of it is on disk) before the overloaded event ends it.
    fx.server.reply({ blocks: [{ type: "text", text: first }], chunk: 6, delayMs: 40, fault: { midStream: "overloaded", afterEvents: 60 } }, { blocks: [{ type: "text", text: ANSWER }], chunk: 6, delayMs: 40 });
    await killAfterPartials(["-p", "count", "--json"], {}, NTH, 2);
    const [file] = sessionFiles(fx.sessions);
    const partials = readFileSync(file!, "utf8").split("\n").filter((l) => l.startsWith('{"type":"partial"')).map((l) => JSON.parse(l));
    const ofAttempt = (n: number) => partials.filter((p) => p.attempt === n).map((p) => p.text).join("");
    expect(first.startsWith(ofAttempt(1))).toBe(true);
    expect(ofAttempt(1).length).toBeGreaterThan(0);
    fx.server.reply({ blocks: [{ type: "text", text: "number 201." }] });
    expect((await fx.run(["--resume", "-p", "go on"])).code).toBe(0);
    const request = fx.server.requests.at(-1)!;
    expect(request.status).toBe(200);
    const resumed = texts(request.body.messages.at(-2).content);
    expect(resumed).toBe(ofAttempt(2));
    expect(ANSWER.startsWith(resumed)).toBe(true);
  });
});

describe.skipIf(!hasTmux)("kill -9 of the REPL while the answer streams", () => {
  const term = useTerminal();

  test("the resumed REPL shows the answer so far, marked interrupted (in /tree too), and the next prompt goes on from it", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: ANSWER }], chunk: 6, delayMs: 40 });
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.send("count to two hundred");
    // The answer streams; once two partials are on disk, awl (the pane's shell's child) is killed.
    const partials = () => {
      const [file] = sessionFiles(fx.sessions);
      return file ? readFileSync(file, "utf8").split("\n").filter((l) => l.startsWith('{"type":"partial"')) : [];
    };
    for (let waited = 0; partials().length < NTH; waited += 20) {
      if (waited > 60_000) throw new Error("no partials were written");
      await Bun.sleep(20);
    }
    process.kill(term.childPid(), "SIGKILL");
    await term.waitFor(/\[exited 137\]/);
    const kept = partials()
      .map((l) => JSON.parse(l).text)
      .join("");
    term.close();

    fx.server.reply({ blocks: [{ type: "text", text: "number 201." }] });
    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env, width: 160 });
    // The transcript's answer: the text kept, then the mark. The screen wraps between words and drops a
    // line's trailing space, so both are read with each run of white space as one.
    const flat = (text: string) => text.replace(/\s+/g, " ").trim();
    const lastWords = flat(kept).split(" ").slice(-2).join(" ");
    const screen = flat(await term.waitFor(/Interrupted\./));
    expect(screen).toContain(lastWords);
    expect(screen.indexOf(lastWords)).toBeLessThan(screen.indexOf("Interrupted."));
    // /tree draws it under the prompt, marked interrupted; Esc leaves the tree as it was.
    term.send("/tree");
    const tree = await term.waitFor(/◌ .*awl +number 1, number 2.*\(interrupted\)/);
    expect(tree).toMatch(/◉ [0-9a-f]{8} .*count to two hundred/);
    term.keys("Escape");
    await term.waitFor(/Staying where you are\./);
    term.send("go on");
    await term.waitFor(/number 201\./);
    const request = fx.server.requests.at(-1)!;
    expect(request.status).toBe(200);
    expect(texts(request.body.messages.at(-2).content)).toBe(kept);
  });
});
