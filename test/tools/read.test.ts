import { describe, expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { call, tempDir } from "./helpers";

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(6)}\tline ${from + i}`).join("\n");

async function fileWithLines(count: number): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, "f.txt"), Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join(""));
  return dir;
}

describe("read", () => {
  test("shows a file relative to the cwd with line numbers like cat -n", async () => {
    const dir = await fileWithLines(3);
    const out = await call("read", { path: "f.txt" }, dir);
    expect(out).toEqual({ content: numbered(1, 3), isError: false });
  });

  test("accepts an absolute path", async () => {
    const dir = await fileWithLines(1);
    expect((await call("read", { path: join(dir, "f.txt") }, "/")).content).toBe(numbered(1, 1));
  });

  test("offset and limit select a window and say how to read on", async () => {
    const dir = await fileWithLines(10);
    const out = await call("read", { path: "f.txt", offset: 4, limit: 3 }, dir);
    expect(out.content).toBe(`${numbered(4, 6)}\n[showing lines 4-6 of 10; use offset=7 to read more]`);
  });

  test("a window reaching the end has no note", async () => {
    const dir = await fileWithLines(10);
    expect((await call("read", { path: "f.txt", offset: 8 }, dir)).content).toBe(numbered(8, 10));
  });

  test("a last line without a newline is still shown", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f.txt"), "line 1\nline 2");
    expect((await call("read", { path: "f.txt" }, dir)).content).toBe(numbered(1, 2));
  });

  test("at most 2000 lines are shown at once", async () => {
    const dir = await fileWithLines(5000);
    const out = await call("read", { path: "f.txt", offset: 2, limit: 4000 }, dir);
    expect(out.content).toBe(`${numbered(2, 2001)}\n[showing lines 2-2001 of 5000; use offset=2002 to read more]`);
  });

  test("at most 50 KB is shown at once", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f.txt"), `${"x".repeat(999)}\n`.repeat(200));
    const out = await call("read", { path: "f.txt" }, dir);
    const lines = out.content.split("\n");
    const note = lines.pop();
    expect(note).toBe(`[showing lines 1-${lines.length} of 200; use offset=${lines.length + 1} to read more]`);
    expect(Buffer.byteLength(lines.join("\n"))).toBeLessThanOrEqual(50 * 1024);
    expect(lines.length).toBe(50);
  });

  test("a single line longer than 50 KB is cut with a note", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f.txt"), `${"y".repeat(200_000)}\nshort\n`);
    const out = await call("read", { path: "f.txt" }, dir);
    const [line, cutNote, moreNote] = out.content.split("\n");
    expect(Buffer.byteLength(line ?? "")).toBe(50 * 1024);
    expect(cutNote).toContain("line 1 is longer than 50 KB");
    expect(moreNote).toBe("[showing lines 1-1 of 2; use offset=2 to read more]");
  });

  test("an empty file says so", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f.txt"), "");
    expect(await call("read", { path: "f.txt" }, dir)).toEqual({ content: "(empty file)", isError: false });
  });

  test("an offset past the end is an error that gives the length", async () => {
    const dir = await fileWithLines(3);
    expect(await call("read", { path: "f.txt", offset: 9 }, dir)).toEqual({
      content: "offset 9 is beyond the end of f.txt (3 lines)",
      isError: true,
    });
  });

  test("a directory is an error pointing to ls", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "sub"));
    expect(await call("read", { path: "sub" }, dir)).toEqual({ content: "sub is a directory; use bash ls to list it", isError: true });
  });

  test("a binary file is refused", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f.bin"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const out = await call("read", { path: "f.bin" }, dir);
    expect(out.isError).toBe(true);
    expect(out.content).toContain("f.bin looks like a binary file");
  });

  test("a missing file is an error", async () => {
    expect(await call("read", { path: "nope.txt" }, await tempDir())).toEqual({ content: "nope.txt: no such file", isError: true });
  });

  test("offset must be a positive integer", async () => {
    const out = await call("read", { path: "f.txt", offset: 0 }, await tempDir());
    expect(out).toEqual({ content: "read: offset must be at least 1 (was 0)", isError: true });
  });
});
