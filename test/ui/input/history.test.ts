// The prompt history file (src/ui/input/history.ts) on real files: where it lives,
// its bounds and permissions, concurrent appends from several processes, and
// every way it can be broken without stopping the REPL.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendHistory, HISTORY_LIMITS, historyFile, loadHistory, mergeHistory } from "../../../src/ui/input/history";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "awl-history-"));
  file = join(dir, "data", "awl", "history.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = () => readFileSync(file, "utf8").split("\n").filter(Boolean);
const mode = (path: string) => statSync(path).mode & 0o777;

describe("the history file", () => {
  test("lives in $XDG_DATA_HOME/awl, else ~/.local/share/awl (a relative XDG_DATA_HOME is ignored)", () => {
    expect(historyFile({ XDG_DATA_HOME: "/x/data", HOME: "/home/ana" })).toBe("/x/data/awl/history.jsonl");
    expect(historyFile({ HOME: "/home/ana" })).toBe("/home/ana/.local/share/awl/history.jsonl");
    expect(historyFile({ XDG_DATA_HOME: "data", HOME: "/home/ana" })).toBe("/home/ana/.local/share/awl/history.jsonl");
  });

  test("one JSON line per prompt; Up offers this directory's prompts, oldest first, a repeat kept once", () => {
    appendHistory("/a", "first", file);
    appendHistory("/b", "elsewhere", file);
    appendHistory("/a", "second\nwith two lines", file);
    appendHistory("/a", "second\nwith two lines", file);
    appendHistory("/a", "third", file);
    expect(loadHistory("/a", file)).toEqual(["first", "second\nwith two lines", "third"]);
    expect(loadHistory("/b", file)).toEqual(["elsewhere"]);
    expect(JSON.parse(lines()[0]!)).toEqual({ ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), cwd: "/a", text: "first" });
  });

  test("directories it creates are 0700 and the file 0600, whatever the umask; a file left 0644 is made 0600", () => {
    const umask = process.umask(0o022);
    try {
      appendHistory("/a", "x", file);
    } finally {
      process.umask(umask);
    }
    expect(mode(join(dir, "data"))).toBe(0o700);
    expect(mode(join(dir, "data", "awl"))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    chmodSync(file, 0o644);
    appendHistory("/a", "y", file);
    expect(mode(file)).toBe(0o600);
  });

  test("a blank prompt is not kept, nor one over the entry bound", () => {
    expect(appendHistory("/a", "  \n ", file)).toBe(false);
    expect(appendHistory("/a", "x".repeat(HISTORY_LIMITS.maxEntryBytes), file)).toBe(false);
    expect(appendHistory("/a", "kept", file)).toBe(true);
    expect(loadHistory("/a", file)).toEqual(["kept"]);
  });

  test("the resumed session's own prompts the file lacks come after the file's", () => {
    expect(mergeHistory(["a", "b"], ["old", "b", "new"])).toEqual(["a", "b", "old", "new"]);
  });
});

describe("bounds", () => {
  test("never more entries than the bound: the newest are kept, rewritten down to 90% when it is crossed", () => {
    const limits = { maxEntries: 50, maxBytes: 1024 * 1024, maxEntryBytes: 1024 };
    for (let i = 0; i < 500; i++) {
      expect(appendHistory("/a", `prompt ${i}`, file, limits)).toBe(true);
      expect(lines().length).toBeLessThanOrEqual(50);
    }
    const kept = loadHistory("/a", file, limits);
    expect(kept.at(-1)).toBe("prompt 499");
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `prompt ${500 - kept.length + i}`));
  });

  test("never more bytes than the bound", () => {
    const limits = { maxEntries: 10_000, maxBytes: 8 * 1024, maxEntryBytes: 1024 };
    for (let i = 0; i < 300; i++) {
      appendHistory("/a", `prompt ${i} ${"y".repeat(i % 200)}`, file, limits);
      expect(statSync(file).size).toBeLessThanOrEqual(8 * 1024);
    }
    expect(loadHistory("/a", file, limits).at(-1)).toStartWith("prompt 299 ");
  });
});

describe("damage never stops the REPL", () => {
  test("corrupt lines, invalid UTF-8 and records of the wrong shape are skipped; the next rewrite drops them", () => {
    mkdirSync(join(dir, "data", "awl"), { recursive: true });
    const good = (text: string) => `${JSON.stringify({ ts: "2026-01-01T00:00:00.000Z", cwd: "/a", text })}\n`;
    writeFileSync(file, Buffer.concat([
      Buffer.from(good("one")),
      Buffer.from("{not json\n"),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from('{"cwd":"/a","text":42}\nnull\n[1]\n'),
      Buffer.from(good("two")),
    ]));
    expect(loadHistory("/a", file)).toEqual(["one", "two"]);
    const limits = { maxEntries: 4, maxBytes: 1024 * 1024, maxEntryBytes: 1024 };
    appendHistory("/a", "three", file, limits); // 8 lines: over the bound, rewritten
    expect(lines().map((l) => JSON.parse(l).text)).toEqual(["one", "two", "three"]);
  });

  test("a torn last line (a write cut short) does not swallow the next prompt", () => {
    appendHistory("/a", "one", file);
    writeFileSync(file, `${readFileSync(file, "utf8")}{"ts":"2026-`, { flag: "w" });
    appendHistory("/a", "two", file);
    expect(loadHistory("/a", file)).toEqual(["one", "two"]);
  });

  test("a directory, a FIFO or a symlink where the file should be: an empty history, appends refused, nothing thrown", () => {
    mkdirSync(file, { recursive: true });
    expect(loadHistory("/a", file)).toEqual([]);
    expect(appendHistory("/a", "x", file)).toBe(false);
    rmSync(file, { recursive: true });

    expect(Bun.spawnSync(["mkfifo", file]).exitCode).toBe(0);
    expect(loadHistory("/a", file)).toEqual([]); // would block forever without O_NONBLOCK
    expect(appendHistory("/a", "x", file)).toBe(false);
    rmSync(file);

    const elsewhere = join(dir, "elsewhere");
    writeFileSync(elsewhere, "");
    symlinkSync(elsewhere, file);
    expect(appendHistory("/a", "x", file)).toBe(false);
    expect(readFileSync(elsewhere, "utf8")).toBe("");
    expect(loadHistory("/a", file)).toEqual([]);
  });

  test("a data directory that cannot be created: the append is lost, quietly", () => {
    writeFileSync(join(dir, "data"), "a file where the directory should be");
    expect(appendHistory("/a", "x", file)).toBe(false);
    expect(loadHistory("/a", file)).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });
});

describe("several awl processes at once", () => {
  const writer = join(import.meta.dir, "fixtures", "history-writer.ts");
  const run = async (processes: number, count: number, maxEntries: number, maxBytes: number) => {
    mkdirSync(join(dir, "data", "awl"), { recursive: true });
    const children = Array.from({ length: processes }, (_, p) =>
      Bun.spawn([process.execPath, "run", writer, file, `p${p}`, String(count), String(maxEntries), String(maxBytes)], { stdout: "pipe", stderr: "pipe" }),
    );
    const failed = await Promise.all(children.map(async (child) => Number((await new Response(child.stdout).text()).trim())));
    expect(await Promise.all(children.map((c) => c.exited))).toEqual(children.map(() => 0));
    expect(failed).toEqual(children.map(() => 0));
    const texts = lines().map((line) => JSON.parse(line).text as string); // every line whole
    return texts;
  };

  test("appends interleave by whole lines and none is lost", async () => {
    const texts = await run(6, 150, 100_000, 64 * 1024 * 1024);
    expect(texts).toHaveLength(6 * 150);
    for (let p = 0; p < 6; p++) {
      // Each process's own lines are all there, in its order.
      expect(texts.filter((t) => t.startsWith(`p${p} `))).toEqual(Array.from({ length: 150 }, (_, i) => `p${p} ${i}`));
    }
  }, 30_000);

  test("with rewrites racing the appends: within bounds, and what each process keeps is its newest, without gaps", async () => {
    const texts = await run(6, 300, 120, 64 * 1024 * 1024);
    expect(texts.length).toBeLessThanOrEqual(120);
    for (let p = 0; p < 6; p++) {
      const own = texts.filter((t) => t.startsWith(`p${p} `)).map((t) => Number(t.split(" ")[1]));
      // A lost append would leave a hole in a process's run of lines.
      expect(own).toEqual(Array.from({ length: own.length }, (_, i) => 300 - own.length + i));
    }
  }, 60_000);
});
