// Standard input under -p: a pipe or a file goes before the prompt (a blank
// line between), `-p -` takes it as the prompt, --no-stdin leaves it alone;
// what cannot be sent is refused with exit 2 before any request, and what can
// is sent whole, characters split across reads included.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";

const fx = useE2eFixture();

/** The text of the first user message the server received. */
const sentPrompt = (): string => {
  const content = fx.server.requests[0]!.body.messages[0].content;
  return typeof content === "string" ? content : content.map((b: { text?: string }) => b.text ?? "").join("");
};

test("a pipe goes before the prompt, separated by a blank line", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "looks fine" }] }, { blocks: [{ type: "text", text: "ok" }] });
  const run = await fx.run(["-p", "review this"], { stdin: "diff --git a/x b/x\n+added\n" });
  expect(run).toMatchObject({ code: 0, stdout: "looks fine\n" });
  expect(sentPrompt()).toBe("diff --git a/x b/x\n+added\n\nreview this");
  const unterminated = await fx.run(["-p", "and this"], { stdin: "no newline" });
  expect(unterminated.code).toBe(0);
  expect(fx.server.requests[1]!.rawBody).toContain(JSON.stringify("no newline\n\nand this"));
});

test("a regular file on stdin is read too; --no-stdin leaves stdin alone", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "text", text: "b" }] });
  const file = join(fx.root, "input.txt");
  await Bun.write(file, "from a file\n");
  const child = Bun.spawn([AWL, "-p", "what is it"], { cwd: fx.project, env: fx.env, stdin: Bun.file(file), stdout: "pipe", stderr: "pipe" });
  expect(await child.exited).toBe(0);
  expect(sentPrompt()).toBe("from a file\n\nwhat is it");
  const run = await fx.run(["-p", "only this", "--no-stdin"], { stdin: "not for awl\n" });
  expect(run.code).toBe(0);
  expect(fx.server.requests[1]!.rawBody).toContain('"only this"');
  expect(fx.server.requests[1]!.rawBody).not.toContain("not for awl");
});

test("20 MB of stdin (multibyte characters split across reads) is sent whole", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "summarised" }] });
  const unit = "déjà vu € 😀 ";
  const big = unit.repeat(Math.ceil(20_000_000 / Buffer.byteLength(unit)));
  const run = await fx.run(["-p", "summarise"], { stdin: big, env: { AWL_CONTEXT_WINDOW: "10m" } });
  expect(run.code).toBe(0);
  expect(sentPrompt()).toBe(`${big}\n\nsummarise`);
}, 60_000);

test("stdin over 32 MiB, or not UTF-8, is refused with exit 2 before any request", async () => {
  const over = await fx.run(["-p", "x"], { stdin: "a".repeat(32 * 1024 * 1024 + 1) });
  expect(over.code).toBe(2);
  expect(over.stderr).toContain("over 32 MiB");
  const bytes = Buffer.concat([Buffer.from("fine text é "), Buffer.from([0xc3, 0x28]), Buffer.from(" more")]);
  const child = Bun.spawn([AWL, "-p", "x"], { cwd: fx.project, env: fx.env, stdin: bytes, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  expect(code).toBe(2);
  expect(stderr).toBe("awl: standard input is not UTF-8 text (byte 13 is not): nothing was sent\n");
  expect(fx.server.requests).toEqual([]);
}, 30_000);

test("-p - takes the prompt from stdin alone; an empty one is a usage error", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "got it" }] });
  expect((await fx.run(["-p", "-"], { stdin: "the whole prompt\n" })).code).toBe(0);
  expect(sentPrompt()).toBe("the whole prompt\n");
  expect((await fx.run(["-p", "-"], { stdin: "" })).code).toBe(2);
  expect((await fx.run(["-p", "-", "--no-stdin"])).code).toBe(2);
});

test("a pipe left open with nothing in it: one line naming --no-stdin, and awl keeps waiting", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "done" }] });
  const err = join(fx.root, "err");
  // The writer waits for awl's line before it writes: no timing in the test.
  const script = `{ until grep -q -- --no-stdin "${err}" 2>/dev/null; do sleep 0.1; done; echo late input; } | "$0" -p go 2>"${err}"`;
  const child = Bun.spawn(["bash", "-c", script, AWL], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  expect(await child.exited).toBe(0);
  expect(readFileSync(err, "utf8")).toBe("awl: waiting for standard input to end: -p sends it before the prompt (--no-stdin leaves it alone)\n");
  expect(sentPrompt()).toBe("late input\n\ngo");
}, 30_000);

/** awl run as a Node or Bun parent starts a child by default: stdin is a socket. `feed` writes to it; the socket stays open until awl exits. */
async function underNodeParent(args: string[], feed: (stdin: NodeJS.WritableStream) => void): Promise<{ code: number | null; stderr: string }> {
  const { spawn } = await import("node:child_process");
  const child = spawn(AWL, args, { cwd: fx.project, env: fx.env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.resume();
  feed(child.stdin);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.stdin.destroy();
  return { code, stderr };
}

test("a socket on stdin (a Node or Bun parent's default) that sends its text is read before the prompt", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "done" }] });
  const run = await underNodeParent(["-p", "go"], (stdin) => stdin.end("from the parent\n"));
  expect(run.code).toBe(0);
  expect(sentPrompt()).toBe("from the parent\n\ngo");
}, 30_000);

test("a socket left open with nothing in it: awl goes on without it and says so; --no-stdin says nothing", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "done" }] }, { blocks: [{ type: "text", text: "done" }] });
  const silent = await underNodeParent(["-p", "go"], () => {});
  expect(silent.code).toBe(0);
  expect(silent.stderr).toBe("awl: standard input is a socket that sent nothing in 3 s: not read (--no-stdin skips the wait)\n");
  expect(sentPrompt()).toBe("go");
  const quiet = await underNodeParent(["-p", "go", "--no-stdin"], () => {});
  expect(quiet.code).toBe(0);
  expect(quiet.stderr).toBe("");
}, 30_000);

test("a @path in what the pipe held is text: only the typed prompt's @paths attach their files", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "read" }] });
  await Bun.write(join(fx.project, "notes.md"), "the notes\n");
  await Bun.write(join(fx.root, "secret.txt"), "the secret\n");
  const run = await fx.run(["-p", "compare with @notes.md"], { stdin: "commit 1: see @../secret.txt and @notes.md\n" });
  expect(run.code).toBe(0);
  const sent = JSON.stringify(fx.server.requests[0]!.body.messages);
  expect(sent).toContain("the notes");
  expect(sent).not.toContain("the secret");
  expect(run.stderr).not.toContain("secret.txt");
});
