import { describe, expect, test } from "bun:test";
import { mkdir, open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { call, tempDir } from "./helpers";

/** The result, or "still waiting" after `ms`: a read that hangs fails the test instead of hanging it. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | "still waiting"> {
  let timer: Timer | undefined;
  const late = new Promise<"still waiting">((done) => (timer = setTimeout(() => done("still waiting"), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

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

describe("read never hangs", () => {
  test("a FIFO with no writer is refused at once, without being opened", async () => {
    const dir = await tempDir();
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
    expect(await within(2000, call("read", { path: "pipe" }, dir))).toEqual({
      content: "pipe is a FIFO (named pipe), not a regular file; read does not open it (it could wait forever for input)",
      isError: true,
    });
  });

  test("a character device (/dev/tty) and a socket are refused", async () => {
    const dir = await tempDir();
    const tty = await within(2000, call("read", { path: "/dev/tty" }, dir));
    expect(tty).toEqual({ content: "/dev/tty is a character device, not a regular file; read does not open it (it could wait forever for input)", isError: true });
    const listener = Bun.listen({ unix: join(dir, "sock"), socket: { data() {} } });
    try {
      const socket = await within(2000, call("read", { path: "sock" }, dir));
      expect(socket).toEqual({ content: "sock is a socket, not a regular file; read does not open it (it could wait forever for input)", isError: true });
    } finally {
      listener.stop(true);
    }
  });

  test("a symbolic link to a FIFO is refused like the FIFO", async () => {
    const dir = await tempDir();
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
    expect(Bun.spawnSync(["ln", "-s", "pipe", join(dir, "link")]).exitCode).toBe(0);
    expect(await within(2000, call("read", { path: "link" }, dir))).toMatchObject({ content: expect.stringMatching(/^link is a FIFO/), isError: true });
  });

  test("an abort stops a long read midway and says it was interrupted", async () => {
    const dir = await tempDir();
    // 4 GB that take no disk: 8 KB of text (past the binary sniff), then a hole the scan must count through.
    const file = await open(join(dir, "huge.log"), "w");
    await file.write("a line of text\n".repeat(600));
    await file.truncate(4 * 1024 ** 3);
    await file.close();
    const controller = new AbortController();
    const started = performance.now();
    const reading = call("read", { path: "huge.log" }, dir, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const out = await within(5000, reading);
    expect(out).toEqual({ content: "interrupted while reading huge.log (read changes nothing)", isError: true, interrupted: true });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

