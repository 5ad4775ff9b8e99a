import { afterEach, beforeEach, expect, test } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

test("the executable alone in an empty directory runs without bun, node or node_modules", async () => {
  const alone = join(fx.root, "alone");
  mkdirSync(alone);
  copyFileSync(AWL, join(alone, "awl"));
  const emptyPath = join(fx.root, "empty-path");
  mkdirSync(emptyPath);
  const env = { ...fx.env, PATH: emptyPath };
  const run = (args: string[]) =>
    Bun.spawn([join(alone, "awl"), ...args], { cwd: alone, env, stdout: "pipe", stderr: "pipe" });

  const version = run(["--version"]);
  expect(await version.exited).toBe(0);
  expect(await new Response(version.stdout).text()).toMatch(/^awl \d/);

  fx.server.reply({ blocks: [{ type: "text", text: "standalone works" }] });
  const prompt = run(["-p", "hello"]);
  expect(await new Response(prompt.stdout).text()).toBe("standalone works\n");
  expect(await prompt.exited).toBe(0);

  const sessions = run(["sessions", "--plain"]);
  expect(await new Response(sessions.stdout).text()).toMatch(/ 3 messages  hello\n$/);
  expect(await sessions.exited).toBe(0);
});
