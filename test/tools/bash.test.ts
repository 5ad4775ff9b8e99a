import { describe, expect, test } from "bun:test";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { call, goneSoon, tempDir } from "./helpers";

describe("bash", () => {
  test("runs in the session cwd and reports exit code 0", async () => {
    const dir = await tempDir();
    const out = await call("bash", { command: "pwd" }, dir);
    expect(out.isError).toBe(false);
    expect(out.content).toBe(`${await realpath(dir)}\nexit code: 0`);
  });

  test("a non-zero exit is an error that names the code", async () => {
    const out = await call("bash", { command: "echo nope; exit 2" }, await tempDir());
    expect(out.isError).toBe(true);
    expect(out.content).toBe("nope\nexit code: 2");
  });

  test("stdout and stderr are combined in the order they were written", async () => {
    const out = await call("bash", { command: "echo one; echo two >&2; echo three; echo four >&2" }, await tempDir());
    expect(out.content).toBe("one\ntwo\nthree\nfour\nexit code: 0");
  });

  test("a command with no output says so", async () => {
    const out = await call("bash", { command: "true" }, await tempDir());
    expect(out.content).toBe("(no output)\nexit code: 0");
  });

  test("stdin is closed, so a command reading it does not hang", async () => {
    const out = await call("bash", { command: "cat; read x; echo done" }, await tempDir());
    expect(out.content).toBe("done\nexit code: 0");
  });

  test("long output keeps the last 2000 lines with a note", async () => {
    const out = await call("bash", { command: "seq 1 5123" }, await tempDir());
    const lines = out.content.split("\n");
    expect(lines[0]).toBe("[output truncated: showing the last 2000 of 5123 lines]");
    expect(lines[1]).toBe("3124");
    expect(lines.at(-2)).toBe("5123");
    expect(lines.length).toBe(2002);
  });

  test("wide output keeps the last 50 KB, starting at a whole line", async () => {
    // 1000 lines of 100 characters: 101,000 bytes, fewer lines than the line cap.
    const out = await call("bash", { command: "for i in $(seq 1 1000); do printf '%099d\\n' $i; done" }, await tempDir());
    const [note, ...rest] = out.content.split("\n");
    const kept = rest.slice(0, -1);
    expect(note).toBe(`[output truncated: showing the last ${kept.length} of 1000 lines (50 KB limit)]`);
    expect(kept.every((line) => line.length === 99)).toBe(true);
    expect(Number(kept.at(-1))).toBe(1000);
    expect(Buffer.byteLength(kept.join("\n"))).toBeLessThanOrEqual(50 * 1024);
  });

  test("a command printing far more than the cap still ends with its tail", async () => {
    const out = await call("bash", { command: "yes abcdefghij | head -c 20000000; echo; echo last" }, await tempDir());
    // 20,000,000 bytes of 11-byte lines: 1,818,181 whole lines, one cut short by head, then "last".
    expect(out.content.startsWith("[output truncated: showing the last 2000 of 1818183 lines]\n")).toBe(true);
    expect(out.content.endsWith("\nabcdefghij\nabcdefghi\nlast\nexit code: 0")).toBe(true);
  });

  test("a timeout kills the whole process group, background children included", async () => {
    const out = await call("bash", { command: "sleep 30 & echo $!; sleep 30", timeout: 1 }, await tempDir());
    expect(out.isError).toBe(true);
    expect(out.interrupted).toBeUndefined(); // a timeout is the command's own failure, not the abort signal
    expect(out.content).toContain("timed out after 1 s");
    const child = Number(out.content.split("\n")[0]);
    expect(child).toBeGreaterThan(0);
    expect(await goneSoon(child)).toBe(true);
  });

  test("an abort kills the whole process group and keeps the output so far", async () => {
    const controller = new AbortController();
    const dir = await tempDir();
    const running = call("bash", { command: "echo started; sleep 30 & echo $! > child.pid; sleep 30" }, dir, controller.signal);
    const childPid = async () => Number(await readFile(`${dir}/child.pid`, "utf8").catch(() => ""));
    while (!(await childPid())) await Bun.sleep(10);
    controller.abort();
    // The command ran and may have changed things: the result says it was interrupted, not that it never ran.
    expect(await running).toEqual({ content: "started\ninterrupted; the command and everything it started were killed", isError: true, interrupted: true });
    expect(await goneSoon(await childPid())).toBe(true);
  });

  test("an already aborted call does not run the command", async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    controller.abort();
    const out = await call("bash", { command: "touch ran" }, dir, controller.signal);
    expect(out).toEqual({ content: "interrupted before it started: not run", isError: true });
    expect(await Bun.file(`${dir}/ran`).exists()).toBe(false);
  });

  test("a background child holding the output open does not block the result", async () => {
    const out = await call("bash", { command: "(sleep 5 &) ; echo quick", timeout: 30 }, await tempDir());
    expect(out.content).toBe("quick\nexit code: 0");
  });

  test("the timeout must be positive and at most 600 seconds", async () => {
    const dir = await tempDir();
    expect((await call("bash", { command: "true", timeout: 0 }, dir)).content).toBe("bash: timeout must be positive (was 0)");
    expect((await call("bash", { command: "true", timeout: 601 }, dir)).content).toBe("bash: timeout must be at most 600 (was 601)");
  });

  test("bash in a cwd that does not exist says so", async () => {
    const gone = join(await tempDir(), "gone");
    expect(await call("bash", { command: "true" }, gone)).toEqual({ content: `the working directory ${gone} does not exist`, isError: true });
  });

  test("provider keys and secret-named variables are not passed; AWL_BASH_PASS_ENV passes one on purpose", async () => {
    const dir = await tempDir();
    const set = {
      ANTHROPIC_API_KEY: "sk-ant-not-for-tools",
      OPENAI_API_KEY: "sk-openai-not-for-tools",
      GITHUB_TOKEN: "ghp-token",
      AWS_SECRET_ACCESS_KEY: "aws-secret",
      PGPASSWORD: "pg-password",
      npm_config__authToken: "npm-token",
      AWL_TEST_PLAIN: "plain value",
    };
    const saved = { ...process.env };
    Object.assign(process.env, set);
    try {
      const names = Object.keys(set).join(" ");
      const print = `for n in ${names}; do printf '%s=%s\\n' "$n" "\${!n-unset}"; done`;
      expect((await call("bash", { command: print }, dir)).content).toBe(
        [
          "ANTHROPIC_API_KEY=unset",
          "OPENAI_API_KEY=unset",
          "GITHUB_TOKEN=unset",
          "AWS_SECRET_ACCESS_KEY=unset",
          "PGPASSWORD=unset",
          "npm_config__authToken=unset",
          "AWL_TEST_PLAIN=plain value",
          "exit code: 0",
        ].join("\n"),
      );
      // Named on purpose: passed. A provider key stays out even when named.
      process.env.AWL_BASH_PASS_ENV = "GITHUB_TOKEN, PGPASSWORD,ANTHROPIC_API_KEY";
      const passed = await call("bash", { command: print }, dir);
      expect(passed.content.split("\n").slice(0, 5)).toEqual(["ANTHROPIC_API_KEY=unset", "OPENAI_API_KEY=unset", "GITHUB_TOKEN=ghp-token", "AWS_SECRET_ACCESS_KEY=unset", "PGPASSWORD=pg-password"]);
    } finally {
      for (const name of [...Object.keys(set), "AWL_BASH_PASS_ENV"]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

