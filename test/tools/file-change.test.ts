// Issue 12, item 2: write and edit hand the terminal what they did to the file
// (ToolOutput.change: the bytes before and after, as read and written), so the
// diff shown is computed from what happened. The model's result is unchanged;
// the keys runTool scrubs from `content` are scrubbed from the change too.
import { expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runTool } from "../../src/tools";
import { MAX_KEPT_BYTES } from "../../src/tools/tool";
import { tempDir } from "./helpers";

const KEY = "sk-ant-api03-abcdefghijklmnop";
const run = (name: string, input: unknown, cwd: string) =>
  runTool(name, JSON.stringify(input), { cwd, signal: new AbortController().signal, secrets: { ANTHROPIC_API_KEY: KEY } });

test("a key the model writes into a file is redacted in the diff the terminal shows, as in the result", async () => {
  const dir = await tempDir();
  const written = await run("write", { path: ".env", content: `ANTHROPIC_API_KEY=${KEY}\n` }, dir);
  expect(written.change).toEqual({ created: true, after: Buffer.from("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n") });
  const edited = await run("edit", { path: ".env", oldText: "ANTHROPIC", newText: "# ANTHROPIC" }, dir);
  expect(Buffer.from(edited.change!.before!).toString()).toBe("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n");
  expect(Buffer.from(edited.change!.after).toString()).toBe("# ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n");
  // The file itself holds what the model wrote: only what is shown changes.
  expect(await Bun.file(join(dir, ".env")).text()).toBe(`# ANTHROPIC_API_KEY=${KEY}\n`);
});

test("overwriting a file too large to keep twice in memory: the change says created: false and has no before", async () => {
  const dir = await tempDir();
  await writeFile(join(dir, "big.log"), Buffer.alloc(MAX_KEPT_BYTES + 1, "x"));
  const out = await run("write", { path: "big.log", content: "small now\n" }, dir);
  expect(out.content).toBe("overwrote big.log (10 bytes)");
  expect(out.change).toEqual({ created: false, after: Buffer.from("small now\n") });
});

test("a failed or refused call carries no change", async () => {
  const dir = await tempDir();
  await writeFile(join(dir, "f.txt"), "one\n");
  expect((await run("edit", { path: "f.txt", oldText: "two", newText: "2" }, dir)).change).toBeUndefined();
  expect((await run("write", { path: ".", content: "x" }, dir)).change).toBeUndefined();
});
