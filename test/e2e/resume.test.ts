import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture, sessionFiles } from "./awl";
import { readLog } from "../support/session-log";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const idOf = (file: string) => file.slice(-42, -6);
const lines = async (file: string) => readLog(file);

describe("--resume", () => {
  test("continues the latest session: the next request carries the whole conversation, thinking signatures included", async () => {
    fx.server.reply({ blocks: [{ type: "thinking", thinking: "Let me think about 2+2." }, { type: "text", text: "4" }] });
    expect((await fx.run(["-p", "2+2?", "--thinking"])).code).toBe(0);
    const firstResponseThinking = (await lines(sessionFiles(fx.sessions)[0]!))[4].message.content[0]; // header, system, prompt, its title, answer
    expect(firstResponseThinking.signature).toBeString();

    fx.server.reply({ blocks: [{ type: "text", text: "8" }] });
    const run = await fx.run(["-p", "and doubled?", "--resume", "--thinking"]);
    expect(run).toMatchObject({ code: 0, stdout: "8\n" });
    expect(sessionFiles(fx.sessions)).toHaveLength(1);
    const sent = fx.server.requests[1]!.body.messages;
    expect(sent).toHaveLength(3);
    expect(sent[1].content[0]).toEqual({ type: "thinking", thinking: "Let me think about 2+2.", signature: firstResponseThinking.signature });
    expect(fx.server.requests[1]!.status ?? 200).toBe(200);
  });

  test("a session of megabytes resumes: the next request carries all of it, its length declared, not chunked", async () => {
    // A window that large (a local model's, set by hand): the whole history goes, uncompacted.
    const env = { AWL_CONTEXT_WINDOW: "10m" };
    const long = Array.from({ length: 40_000 }, (_, i) => `${i}: "quoted" \\ ${i % 9 ? "code" : "— ✓ 🌍"}\n`).join("");
    fx.server.reply({ blocks: [{ type: "text", text: long }] }, { blocks: [{ type: "text", text: "seen" }] });
    expect((await fx.run(["-p", "write a lot"], { env })).code).toBe(0);
    const run = await fx.run(["-p", "and now?", "--resume"], { env });
    expect(run).toMatchObject({ code: 0, stdout: "seen\n" });
    const request = fx.server.requests[1]!;
    expect(Buffer.byteLength(request.rawBody)).toBeGreaterThan(1 << 20); // large enough to be streamed
    expect(request.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(request.headers["content-length"])).toBe(Buffer.byteLength(request.rawBody));
    expect(request.body.messages.map((m: { content: { text: string }[] }) => m.content.map((b) => b.text).join(""))).toEqual(["write a lot", long, "and now?"]);
  });

  test("with no session here it starts a new one and says so", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "hello" }] });
    const run = await fx.run(["-p", "hi", "--resume"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/no earlier session/i);
    expect(sessionFiles(fx.sessions)).toHaveLength(1);
  });

  test("picks the session with the newest last entry, not the newest file name", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "text", text: "b" }] }, { blocks: [{ type: "text", text: "c" }] }, { blocks: [{ type: "text", text: "d" }] });
    await fx.run(["-p", "older session"]);
    await fx.run(["-p", "newer session"]);
    const [older] = sessionFiles(fx.sessions);
    await fx.run(["-p", "touch the older one", "--resume", idOf(older!)]);
    await fx.run(["-p", "which?", "--resume"]);
    expect((await lines(older!)).at(-2).message.content[0].text).toBe("which?");
  });

  test("--resume <prefix>: unique, ambiguous, unknown, and from another directory", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "text", text: "b" }] }, { blocks: [{ type: "text", text: "c" }] });
    await fx.run(["-p", "first prompt"]);
    await fx.run(["-p", "second prompt"]);
    const [a, b] = sessionFiles(fx.sessions).map(idOf) as [string, string];
    let common = 0;
    while (a[common] === b[common]) common++;

    const unique = await fx.run(["-p", "again", "--resume", a.slice(0, common + 1)]);
    expect(unique.code).toBe(0);

    const ambiguous = await fx.run(["-p", "x", "--resume", a.slice(0, common)]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain("first prompt");
    expect(ambiguous.stderr).toContain("second prompt");

    const unknown = await fx.run(["-p", "x", "--resume", "ffffffff"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no session/i);

    const elsewhere = join(fx.root, "elsewhere");
    mkdirSync(elsewhere);
    // A prefix finds only this directory's sessions (a whole id finds any: find-session.test.ts).
    const other = await fx.run(["-p", "x", "--resume", a.slice(0, common + 1)], { cwd: elsewhere });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(fx.project);

    for (const hostile of ["../x", "a/b", "..", "%2e%2e"]) {
      const run = await fx.run(["-p", "x", "--resume", hostile]);
      expect(run.code).toBe(2);
      expect(run.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    }
  });

  test("--provider with --resume switches from the next prompt on, and the stamp says so", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "from claude" }] }, { blocks: [{ type: "text", text: "from gpt" }] });
    await fx.run(["-p", "one"]);
    const run = await fx.run(["-p", "two", "--resume", "--provider", "openai", "--model", "gpt-4o"]);
    expect(run).toMatchObject({ code: 0, stdout: "from gpt\n" });
    const users = (await lines(sessionFiles(fx.sessions)[0]!)).filter((l) => l.message?.role === "user");
    expect(users.map((u) => `${u.provider}/${u.model}`)).toEqual(["anthropic/claude-sonnet-5-5", "openai/gpt-4o"]);
    expect(fx.server.requests[1]!.path).toBe("/v1/chat/completions");
    expect(fx.server.requests[1]!.body.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "user"]);
  });
});

describe("crash recovery", () => {
  test("awl killed mid-stream resumes from the last valid entry and the next turn succeeds", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "a slow answer that never finishes ".repeat(20) }], chunk: 5, delayMs: 50 });
    const child = Bun.spawn([AWL, "-p", "tell me a story"], { cwd: fx.project, env: fx.env, stdout: "pipe", stderr: "pipe" });
    const deadline = Date.now() + 10_000;
    while (fx.server.requests.length === 0 && Date.now() < deadline) await Bun.sleep(20);
    await Bun.sleep(200);
    child.kill("SIGKILL");
    await child.exited;
    const [file] = sessionFiles(fx.sessions);
    const before = await Bun.file(file!).text();
    appendFileSync(file!, '{"type":"message","id":"torn1234","parentId":'); // a torn write, as a crash mid-line leaves

    fx.server.reply({ blocks: [{ type: "text", text: "recovered" }] });
    const run = await fx.run(["-p", "still there?", "--resume"]);
    expect(run).toMatchObject({ code: 0, stdout: "recovered\n" });
    expect(run.stderr).toMatch(/incomplete last line/i);
    const after = await Bun.file(file!).text();
    expect(after.startsWith(before)).toBe(true);
    expect(fx.server.requests.at(-1)!.body.messages.at(-1).content.at(-1).text).toBe("still there?");
  });
});
