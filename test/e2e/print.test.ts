import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
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

describe("awl -p", () => {
  test("prints the final answer on stdout, tool activity on stderr, and saves the session where the spec says", async () => {
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo from-tool" } }] },
      { blocks: [{ type: "text", text: "The tool said from-tool." }] },
    );
    const run = await fx.run(["-p", "run echo"]);
    expect(run.stderr).toContain("bash echo from-tool");
    expect(run.stdout).toBe("The tool said from-tool.\n");
    expect(run.code).toBe(0);

    const [file, ...others] = sessionFiles(fx.sessions);
    expect(others).toEqual([]);
    const encoded = `--${fx.project.slice(1).replaceAll("/", "-")}--`;
    expect(file).toMatch(new RegExp(`/${encoded}/\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z_[0-9a-f-]{36}\\.jsonl$`));
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(statSync(join(fx.sessions, encoded)).mode & 0o777).toBe(0o700);
    const lines = readLog(file!);
    expect(lines.map((l) => l.message?.role ?? l.type)).toEqual(["session", "system", "user", "session_info", "assistant", "user", "assistant"]);
    expect(lines[3]).toMatchObject({ title: "run echo", source: "auto" }); // the first prompt's title, and no model's
  });

  test("--thinking: the thought is never printed, on stdout or stderr; the answer alone is", async () => {
    const thought = Array.from({ length: 150 }, (_, i) => `musing${i}`).join(" ");
    fx.server.reply({ blocks: [{ type: "thinking", thinking: thought }, { type: "text", text: "The answer." }] });
    const run = await fx.run(["-p", "think first", "--thinking"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The answer.\n");
    expect(run.stderr).not.toContain("musing");
    expect(JSON.stringify(fx.server.requests[0]!.body.thinking)).toContain("adaptive"); // it did think (the default model takes adaptive thinking)
  });

  test("reads the prompt from stdin with -p -", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "got it" }] });
    const run = await fx.run(["-p", "-"], { stdin: "a prompt\nover two lines\n" });
    expect(run.code).toBe(0);
    const sent = fx.server.requests[0]!.body.messages[0].content;
    expect(JSON.stringify(sent)).toContain("a prompt\\nover two lines");
  });

  test("honours XDG_DATA_HOME, and ~/.local/share without it", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "text", text: "b" }] });
    const xdg = join(fx.root, "xdg");
    expect((await fx.run(["-p", "one"], { env: { AWL_SESSION_DIR: undefined, XDG_DATA_HOME: xdg } })).code).toBe(0);
    expect(sessionFiles(join(xdg, "awl", "sessions"))).toHaveLength(1);
    expect((await fx.run(["-p", "two"], { env: { AWL_SESSION_DIR: undefined } })).code).toBe(0);
    expect(sessionFiles(join(fx.home, ".local", "share", "awl", "sessions"))).toHaveLength(1);
  });

  test("a provider failure is one line on stderr, exit 1, and the prompt is still in the log", async () => {
    fx.server.reply({ fault: { status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } });
    const run = await fx.run(["-p", "huge"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).not.toContain(fx.server.anthropicKey);
    const lines = readLog(sessionFiles(fx.sessions)[0]!);
    expect(lines[2].message.content[0].text).toBe("huge");
    expect(lines.at(-1).message).toMatchObject({ role: "assistant", stopReason: "error" });
  });

  test("a missing API key is a clear error and creates no session file", async () => {
    // Named by --provider: with nothing naming one, the provider whose key is set would be used.
    const run = await fx.run(["-p", "hi", "--provider", "anthropic"], { env: { ANTHROPIC_API_KEY: undefined } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
    expect(sessionFiles(fx.root)).toEqual([]);
  });
});

describe("the command line", () => {
  test("--version, --help, and usage errors with exit 2", async () => {
    const version = await fx.run(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^awl \d+\.\d+\.\d+\n$/) });
    const help = await fx.run(["--help"]);
    for (const word of ["--resume", "-p", "sessions", "--provider", "--model", "--thinking", "--plain", "--json", "AWL_SESSION_DIR", "XDG_DATA_HOME", "OPENAI_BASE_URL", "NO_COLOR", "AGENTS.md", "CLAUDE.md", "XDG_CONFIG_HOME"]) {
      expect(help.stdout).toContain(word);
    }
    const bad = await fx.run(["--bogus"]);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toBe("awl: unknown option --bogus (see awl --help)\n");
  });
});

describe("an answer the API fails part-way (overloaded mid-stream)", () => {
  test("is asked again like an HTTP 529, and a file gets the whole second answer once, never the first half", async () => {
    fx.server.reply(
      { blocks: [{ type: "text", text: "The first half of an answer that" }], fault: { midStream: "overloaded", afterEvents: 8 } },
      { blocks: [{ type: "text", text: "The whole answer, asked again." }] },
    );
    const out = join(fx.root, "answer.txt");
    const child = Bun.spawn(["bash", "-c", `"$0" -p "explain" > "${out}"`, AWL], { cwd: fx.project, env: fx.env, stdin: "ignore", stderr: "pipe" });
    const stderr = await new Response(child.stderr).text();
    expect(await child.exited).toBe(0);
    expect(await Bun.file(out).text()).toBe("The whole answer, asked again.\n");
    expect(stderr).toContain("Overloaded");
    expect(stderr).toContain("the answer starts again");
    expect(fx.server.requests.map((r) => r.status)).toEqual([200, 200]);
    const answers = (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "message" && e.message.role === "assistant");
    expect(answers.map((e) => e.message.content)).toEqual([[{ type: "text", text: "The whole answer, asked again." }]]);
  });

  test("stopped by SIGTERM while the second answer streams to a file: the file keeps what arrived of that answer, never the first half", async () => {
    const second = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
    fx.server.reply(
      { blocks: [{ type: "text", text: "The first half of an answer that" }], fault: { midStream: "overloaded", afterEvents: 8 } },
      { blocks: [{ type: "text", text: second }], chunk: 4, delayMs: 10 },
    );
    let asked = 0;
    let againAt = 0;
    fx.server.onRequest = () => void (++asked === 2 && (againAt = Date.now()));
    const out = join(fx.root, "answer.txt");
    const child = Bun.spawn(["bash", "-c", `exec "$0" -p "explain" > "${out}"`, AWL], { cwd: fx.project, env: fx.env, stdin: "ignore", stderr: "pipe" });
    const stderr = new Response(child.stderr).text();
    // Stopped while the second answer streams (it takes seconds: four characters every 10 ms).
    for (const deadline = Date.now() + 30_000; !(againAt > 0 && Date.now() - againAt > 500); await Bun.sleep(20)) if (Date.now() > deadline) throw new Error("the answer was never asked again");
    child.kill("SIGTERM");
    expect(await child.exited).toBe(143);
    const kept = (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "message" && e.message.role === "assistant");
    expect(kept).toHaveLength(1);
    const text: string = kept[0].message.content[0].text;
    expect(text).toStartWith("w0 w1");
    expect(second).toStartWith(text);
    expect(await Bun.file(out).text()).toBe(`${text}\n`);
    expect(await stderr).toContain("the answer starts again");
  });

  test("a tool call that had streamed whole before the failure is never run: the answer starts again without it", async () => {
    fx.server.reply(
      { blocks: [{ type: "text", text: "Let me check." }, { type: "toolUse", name: "bash", input: { command: "touch first-attempt" } }], chunk: 100, fault: { midStream: "overloaded", afterEvents: 8 } },
      { blocks: [{ type: "text", text: "No need to check." }] },
    );
    const run = await fx.run(["-p", "check"]);
    expect(run).toMatchObject({ code: 0, stdout: "No need to check.\n" });
    expect(await Bun.file(join(fx.project, "first-attempt")).exists()).toBe(false);
    expect(run.stderr).not.toContain("touch first-attempt");
  });
});
