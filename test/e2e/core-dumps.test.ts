// No core dumps (issue 11, item 7): a core file is awl's memory on disk, API
// keys and the conversation included. awl lowers its own core-file limit to 0
// at start, even when the shell that started it allows cores.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { AWL, e2eFixture } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

/** The soft core-file limit of a running process, from /proc ("0", "unlimited", …). */
const coreLimit = (pid: number) => /^Max core file size\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"))![1];

test("awl runs with a core-file limit of 0 although its shell allows cores, and a crash leaves no core file", async () => {
  // The shell allows cores (`ulimit -c unlimited`, as many developers set), then becomes awl.
  const child = Bun.spawn(["bash", "-c", `ulimit -S -c unlimited && exec "$0" -p -`, AWL], {
    cwd: fx.project,
    env: fx.env,
    stdin: "pipe", // awl waits for its prompt on stdin, so it stays up to be looked at
    stdout: "ignore",
    stderr: "pipe",
  });
  // Once the shell has become awl, its limit goes to 0 before any command runs; give it a few seconds.
  const deadline = Date.now() + 5_000;
  while (!(readFileSync(`/proc/${child.pid}/cmdline`, "utf8").startsWith(AWL) && coreLimit(child.pid) === "0") && Date.now() < deadline) await Bun.sleep(10);
  expect(coreLimit(child.pid)).toBe("0");
  // SIGABRT is not one awl handles: the kernel would dump a core here if the limit allowed it.
  child.kill("SIGABRT");
  await child.exited;
  expect(child.signalCode).toBe("SIGABRT");
  expect(readdirSync(fx.project).filter((f) => f.startsWith("core"))).toEqual([]);
  // The limit is awl's own: the hard limit stays, so a tool's shell may raise its own.
  const hard = /^Max core file size\s+\S+\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"))![1];
  expect(hard).not.toBe("0");
});

test("the core-file limit a tool's commands start with is 0 too, and they may raise it", async () => {
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "ulimit -S -c; ulimit -S -c unlimited && ulimit -S -c" } }] },
    { blocks: [{ type: "text", text: "done" }] },
  );
  const run = await fx.run(["-p", "limits?"], { prefix: ["bash", "-c", `ulimit -S -c unlimited && exec "$@"`, "bash"] });
  expect(run.code).toBe(0);
  const result = fx.server.requests[1]!.body.messages[2].content[0].content;
  expect(result).toContain("0\nunlimited");
});
