// `awl -p --json` through the compiled binary, as a script reads it: every
// line valid against the published JSON Schema, the stream between header and
// result byte for byte what the run appended to the session file, a result
// line and an exit code that tell the truth for every fault the test server
// can inject, and a reader that is slow or gone.
import { describe, expect, test } from "bun:test";
import { MAX_ATTEMPTS } from "../../src/providers/retry";
import type { Reply } from "../support/server";
import { useE2eFixture } from "./awl";
import { runJson as runIn } from "./json-stream";
import { withoutPartials } from "../support/session-log";

const fx = useE2eFixture();
const runJson = (args: string[], options?: Parameters<typeof fx.run>[1]) => runIn(fx, args, options);
const tool = (command: string): Reply => ({ blocks: [{ type: "toolUse", name: "bash", input: { command } }] });
const text = (t: string): Reply => ({ blocks: [{ type: "text", text: t }] });

describe("awl -p --json: the log as a stream", () => {
  test("tools and thinking: header, every entry, result; usage sums the run's requests; nothing else on stdout", async () => {
    fx.server.reply({ ...tool("echo hi"), usage: { input: 10, output: 5 } }, { blocks: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "done" }], usage: { input: 20, output: 7, cacheRead: 3 } });
    const { run, result, lines } = await runJson(["-p", "run echo", "--thinking"]);
    expect(run.code).toBe(0);
    expect(result).toMatchObject({ status: "ok", exitCode: 0, stopReason: "stop", usage: { input: 30, output: 12, cacheRead: 3 } });
    expect(result.error).toBeUndefined();
    // every appended line, the first prompt's title included
    expect(withoutPartials(lines.map((l) => JSON.parse(l))).map((l) => l.message?.role ?? l.type)).toEqual(["session", "system", "user", "session_info", "assistant", "user", "assistant", "result"]);
  });

  test("--resume: the header is the file's own first line; the stream is what this run appended, across a provider switch", async () => {
    fx.server.reply(text("one"), text("two"));
    expect((await runJson(["-p", "first", "--provider", "anthropic"])).run.code).toBe(0);
    const { run, lines } = await runJson(["-p", "second", "--resume", "--provider", "openai"]);
    expect(run.code).toBe(0);
    const appended = withoutPartials(lines.slice(1, -1).map((l) => JSON.parse(l)));
    expect(appended.map((l) => l.message.role)).toEqual(["user", "assistant"]);
    expect(appended[1].message.provider).toBe("openai");
  });

  test("--json without -p is a usage error; a usage error under -p still ends with a result line (no session)", async () => {
    const chat = await fx.run(["--json"]);
    expect(chat.code).toBe(2);
    expect(chat.stderr).toContain("--json to -p");
    expect(chat.stdout).toBe("");
    const { run, result } = await runJson(["-p", "hi", "--resume", "nosuchid"]);
    expect(run.code).toBe(2);
    expect(result).toMatchObject({ status: "error", sessionId: null, exitCode: 2, usage: { input: 0, output: 0 } });
    expect(result.error.message).toContain("nosuchid");
  });

  test("an answer cut at the output limit is a normal end: exit 0, stopReason length", async () => {
    fx.server.reply({ ...text("cut he"), stop: "length" });
    const { run, result } = await runJson(["-p", "long"]);
    expect(run.code).toBe(0);
    expect(result).toMatchObject({ status: "ok", stopReason: "length" });
  });
});

describe("awl -p --json: every injected fault is an error, said the same on stderr and in the result line", () => {
  const faults: [string, () => void, Record<string, string>?][] = [
    ["429 after the retries", () => fx.server.reply(...Array.from({ length: MAX_ATTEMPTS }, () => ({ fault: { status: 429 } })))],
    ["500 after the retries", () => fx.server.reply(...Array.from({ length: MAX_ATTEMPTS }, () => ({ fault: { status: 500 } })))],
    ["401: a key the API refuses", () => {}, { ANTHROPIC_API_KEY: "sk-ant-wrong" }],
    ["a stream dropped after content", () => fx.server.reply({ ...text("The first half and then"), chunk: 4, fault: { midStream: "drop", afterEvents: 6 } })],
    ["a refusal", () => fx.server.reply({ blocks: [{ type: "refusal", refusal: "I will not." }] })],
  ];
  for (const [name, script, env] of faults) {
    test(name, async () => {
      script();
      const { run, result } = await runJson(["-p", "hello", "--provider", "anthropic"], { env });
      expect(run.code).toBe(1);
      expect(result.status).toBe("error");
      expect(result.error.message.length).toBeGreaterThan(0);
      expect(run.stderr).not.toContain("sk-ant-wrong");
    }, 30_000);
  }

  test("a content filter (OpenAI)", async () => {
    fx.server.reply({ ...text("partial"), stop: "refusal" });
    const { run, result } = await runJson(["-p", "hello", "--provider", "openai"]);
    expect({ code: run.code, status: result.status }).toEqual({ code: 1, status: "error" });
  });
});
