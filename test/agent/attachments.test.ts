// `@path` in a prompt (src/agent/attachments.ts): what is attached, what stays
// text and why, with real files, a folder, a binary, a large file and a FIFO.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attach, mentions } from "../../src/agent/attachments";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "awl-attach-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("the @words of a prompt: at the start of a word, once each, without trailing punctuation; an e-mail address is none", () => {
  expect(mentions("fix @src/date.ts, then @README.md. Ask me@example.com about (@docs/)")).toEqual(["src/date.ts", "README.md", "docs/"]);
  expect(mentions("@a.ts and @a.ts again")).toEqual(["a.ts"]);
});

test("a text file is attached as read, framed with its path; a folder as its listing", async () => {
  mkdirSync(join(dir, "src", "lib"), { recursive: true });
  writeFileSync(join(dir, "src", "date.ts"), "export const today = 1;\n");
  writeFileSync(join(dir, "src", "index.ts"), "");
  const got = await attach(mentions("fix the bug in @src/date.ts, see @src"), dir);
  expect(got.blocks).toEqual([
    { type: "text", text: '<attached path="src/date.ts">\nexport const today = 1;\n</attached>', attached: "src/date.ts" },
    { type: "text", text: '<attached path="src" listing>\ndate.ts\nindex.ts\nlib/\n</attached>', attached: "src" },
  ]);
  expect(got.notices).toEqual(["attached @src/date.ts (1 line)", "attached @src (a folder of 3 entries)"]);
});

test("a binary, a file past the read tool's limits, a missing path and a FIFO stay text, each with why; nothing hangs", async () => {
  writeFileSync(join(dir, "logo.png"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
  writeFileSync(join(dir, "big.log"), "x".repeat(60 * 1024));
  writeFileSync(join(dir, "long.txt"), "a\n".repeat(2001));
  Bun.spawnSync(["mkfifo", join(dir, "pipe")]);
  const got = await attach(mentions("@logo.png @big.log @long.txt @gone.ts @pipe"), dir);
  expect(got.blocks).toEqual([]);
  expect(got.notices).toEqual([
    "@logo.png is not attached: it looks like a binary file (NUL bytes); it goes as text",
    "@big.log is not attached: it is 60 KB, more than the 50 KB the read tool shows at once (the model can read it in parts); it goes as text",
    "@long.txt is not attached: it has 2001 lines, more than the 2000 the read tool shows at once (the model can read it in parts); it goes as text",
    "@gone.ts is not attached: no such file or folder; it goes as text",
    "@pipe is not attached: it is a FIFO (named pipe), not a regular file; it goes as text",
  ]);
});
