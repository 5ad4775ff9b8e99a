// `awl -p` writing its answer where it cannot go (issue 11, item 10): a pipe
// whose reader is gone (`awl -p … | head -1`) and a full disk (`> /dev/full`).
// The answer is in the session either way; awl must not dump a Bun error.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AWL, e2eFixture, sessionFiles } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Runs a shell pipeline around awl; returns awl's own exit status and its stderr. */
async function shell(pipeline: string) {
  const child = Bun.spawn(["bash", "-c", `${pipeline} 2>"$ERR"; echo "\${PIPESTATUS[0]}"`], {
    cwd: fx.project,
    env: { ...fx.env, ERR: `${fx.root}/stderr` },
    stdout: "pipe",
    stderr: "pipe",
  });
  const status = await new Response(child.stdout).text();
  await child.exited;
  return { code: Number(status.trim().split("\n").at(-1)), stderr: readFileSync(`${fx.root}/stderr`, "utf8") };
}

const answerInSession = () => readFileSync(sessionFiles(fx.sessions)[0]!, "utf8").includes("line one\\nline two");

test("a closed pipe (awl -p … | true) ends quietly: exit 0, nothing on stderr, the answer in the session", async () => {
  // `true` exits at once, so the pipe is closed long before the answer is written.
  fx.server.reply({ blocks: [{ type: "text", text: "line one\nline two" }], delayMs: 50 });
  const run = await shell(`${quote(AWL)} -p hi | true`);
  expect(run).toEqual({ code: 0, stderr: "" });
  expect(answerInSession()).toBe(true);
});

test("a full disk (awl -p … > /dev/full) is one line on stderr and exit 1, the answer in the session", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "line one\nline two" }] });
  const run = await shell(`${quote(AWL)} -p hi > /dev/full`);
  expect(run).toEqual({ code: 1, stderr: "awl: could not write to standard output: no space left on device\n" });
  expect(answerInSession()).toBe(true);
});
