import { describe, expect, test } from "bun:test";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { call, tempDir } from "./helpers";

describe("write", () => {
  test("creates the file and its missing parent directories", async () => {
    const dir = await tempDir();
    const out = await call("write", { path: "a/b/c.txt", content: "héllo\n" }, dir);
    expect(out).toEqual({ content: "created a/b/c.txt (7 bytes)", isError: false });
    expect(await readFile(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo\n");
  });

  test("overwrites an existing file and says so", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f.txt"), "old content");
    const out = await call("write", { path: "f.txt", content: "new" }, dir);
    expect(out).toEqual({ content: "overwrote f.txt (3 bytes)", isError: false });
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("new");
  });

  test("refuses to write over a directory", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "sub"));
    expect((await call("write", { path: "sub", content: "x" }, dir)).isError).toBe(true);
  });
});

describe("edit", () => {
  async function fileWith(content: string): Promise<string> {
    const dir = await tempDir();
    await writeFile(join(dir, "f.ts"), content);
    return dir;
  }

  test("replaces the one occurrence and says which line changed", async () => {
    const dir = await fileWith("a\nb\nconst x = 1;\nd\n");
    const out = await call("edit", { path: "f.ts", oldText: "const x = 1;", newText: "const x = 2;" }, dir);
    expect(out).toEqual({ content: "edited f.ts: line 3 replaced, now line 3", isError: false });
    expect(await readFile(join(dir, "f.ts"), "utf8")).toBe("a\nb\nconst x = 2;\nd\n");
  });

  test("reports a multi-line replacement as a range", async () => {
    const dir = await fileWith("a\nb\nc\n");
    const out = await call("edit", { path: "f.ts", oldText: "b\nc", newText: "B\nC\nD\nE" }, dir);
    expect(out.content).toBe("edited f.ts: lines 2-3 replaced, now lines 2-5");
    expect(await readFile(join(dir, "f.ts"), "utf8")).toBe("a\nB\nC\nD\nE\n");
  });

  test("newText is inserted literally, $ patterns included", async () => {
    const dir = await fileWith("price\n");
    await call("edit", { path: "f.ts", oldText: "price", newText: "$& $1 $$" }, dir);
    expect(await readFile(join(dir, "f.ts"), "utf8")).toBe("$& $1 $$\n");
  });

  test("text that is not there is an error hinting at exact whitespace", async () => {
    const dir = await fileWith("  indented\n");
    const out = await call("edit", { path: "f.ts", oldText: "\tindented", newText: "x" }, dir);
    expect(out.isError).toBe(true);
    expect(out.content).toContain("oldText was not found in f.ts");
    expect(out.content).toContain("whitespace and indentation");
    expect(await readFile(join(dir, "f.ts"), "utf8")).toBe("  indented\n");
  });

  test("text that occurs several times is an error listing the lines", async () => {
    const dir = await fileWith("x = 1\ny\nx = 1\nz\nx = 1\n");
    const out = await call("edit", { path: "f.ts", oldText: "x = 1", newText: "x = 2" }, dir);
    expect(out.isError).toBe(true);
    expect(out.content).toContain("oldText occurs 3 times in f.ts (at lines 1, 3, 5)");
    expect(await readFile(join(dir, "f.ts"), "utf8")).toBe("x = 1\ny\nx = 1\nz\nx = 1\n");
  });

  test("overlapping occurrences count as several", async () => {
    const dir = await fileWith("aaa");
    const out = await call("edit", { path: "f.ts", oldText: "aa", newText: "b" }, dir);
    expect(out.content).toContain("occurs 2 times");
  });

  test("an empty oldText is rejected", async () => {
    const dir = await fileWith("a");
    const out = await call("edit", { path: "f.ts", oldText: "", newText: "b" }, dir);
    expect(out).toEqual({ content: "edit: oldText must be non-empty", isError: true });
  });

  test("a missing file is an error", async () => {
    const out = await call("edit", { path: "nope.ts", oldText: "a", newText: "b" }, await tempDir());
    expect(out).toEqual({ content: "nope.ts: no such file", isError: true });
  });
});
