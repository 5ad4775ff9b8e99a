// A project three 100-character folders deep: its encoded folder name would
// be 308 bytes, over the 255 a file system takes, and every prompt failed
// with ENAMETOOLONG (issue 11, item 12). Through the binary.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { e2eFixture, sessionFiles } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

test("a prompt in a deep directory succeeds; awl sessions lists it and --resume (by id and without) continues it", async () => {
  const deep = join(fx.project, "a".repeat(100), "b".repeat(100), "c".repeat(100));
  mkdirSync(deep, { recursive: true });
  fx.server.reply({ blocks: [{ type: "text", text: "first answer" }] }, { blocks: [{ type: "text", text: "second answer" }] }, { blocks: [{ type: "text", text: "third answer" }] });

  const first = await fx.run(["-p", "hello from deep"], { cwd: deep });
  expect(first.stderr).toBe("");
  expect([first.code, first.stdout]).toEqual([0, "first answer\n"]);

  const [file, ...others] = sessionFiles(fx.sessions);
  expect(others).toEqual([]);
  const folder = basename(dirname(file!));
  expect(Buffer.byteLength(folder)).toBe(213); // 200 bytes of the name, "-", 12 hex digits
  expect(folder).toMatch(/^--.{198}-[0-9a-f]{12}$/);

  const listed = await fx.run(["sessions"], { cwd: deep });
  expect(listed.code).toBe(0);
  const rows = listed.stdout.trim().split("\n");
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatch(/  3 messages  hello from deep$/);

  const resumed = await fx.run(["-p", "and again", "--resume"], { cwd: deep });
  expect([resumed.code, resumed.stdout]).toEqual([0, "second answer\n"]);
  const byId = await fx.run(["-p", "once more", "--resume", rows[0]!.split("  ")[0]!], { cwd: deep });
  expect([byId.code, byId.stdout]).toEqual([0, "third answer\n"]);
  expect(sessionFiles(fx.sessions)).toEqual([file!]);
  // The resumed requests carried the whole conversation.
  expect(fx.server.requests.at(-1)!.body.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  // The header keeps the whole cwd: it, not the shortened folder name, decides whose session this is.
  const header = JSON.parse((await Bun.file(file!).text()).split("\n")[0]!);
  expect(header.cwd).toBe(deep);
});
