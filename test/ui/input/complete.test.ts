// Tab completion (src/ui/input/complete.ts) on a real directory tree.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandArguments, commandNames } from "../../../src/ui/commands";
import { complete } from "../../../src/ui/input/complete";

let cwd: string;
let home: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), "awl-complete-"));
  home = join(cwd, "home");
  for (const d of ["src/ui", "src/agent", "test", ".git", "docs", "home/notes"]) mkdirSync(join(cwd, d), { recursive: true });
  for (const f of ["src/ui/input.ts", "src/ui/input-render.ts", "src/main.ts", "README.md", ".env", "with space.txt"]) writeFileSync(join(cwd, f), "");
  symlinkSync(join(cwd, "docs"), join(cwd, "linked-docs"));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const at = (text: string, cursor = text.length) => complete(text, cursor, { cwd, commands: ["model", "session", "compact", "help", "quit"], home });

describe("a command's argument", () => {
  const withArguments = (text: string) =>
    complete(text, text.length, { cwd, commands: commandNames(), arguments: commandArguments(() => ["gpt-5.4-mini", "gpt-5.5"]), home });

  test("/approve completes the mode, never a file name", () => {
    expect(withArguments("/approve a")).toEqual({ insert: "", candidates: ["ask", "auto"] });
    expect(withArguments("/approve au")).toEqual({ insert: "to ", candidates: [] });
    expect(withArguments("/approve r")).toEqual({ insert: "ead-only ", candidates: [] });
    expect(withArguments("/approve ")).toEqual({ insert: "", candidates: ["ask", "auto", "read-only"] });
    expect(withArguments("/approve READ")).toEqual({ insert: "", candidates: [] }); // nothing matches: nothing else is offered
    expect(withArguments("/APPROVE au")).toEqual({ insert: "to ", candidates: [] });
  });

  test("/effort completes the level; a command with a free argument still completes paths", () => {
    expect(withArguments("/effort x")).toEqual({ insert: "high ", candidates: [] });
    expect(withArguments("/compact keep src/u")).toEqual({ insert: "i/", candidates: [] });
  });
});

describe("slash commands", () => {
  test("a unique prefix completes the command and a space", () => {
    expect(at("/mo")).toEqual({ insert: "del ", candidates: [] });
    expect(at("/q")).toEqual({ insert: "uit ", candidates: [] });
  });

  test("a bare slash lists them all", () => {
    expect(at("/")).toEqual({ insert: "", candidates: ["/compact", "/help", "/model", "/quit", "/session"] });
  });

  test("only the first word is a command; a path that starts with / is completed as a path", () => {
    expect(at("explain /mo")).toEqual({ insert: "", candidates: [] });
    expect(at(`${cwd}/REA`)).toEqual({ insert: "DME.md ", candidates: [] });
  });

  test("every command /help lists is offered, whatever has been added since", () => {
    const names = commandNames();
    expect(names).toEqual(expect.arrayContaining(["model", "session", "compact", "help", "quit"]));
    expect(complete("/", 1, { cwd, commands: names })!.candidates).toEqual(names.map((n) => `/${n}`).sort());
  });
});

describe("model ids after /model", () => {
  const models = () => ["claude-sonnet-5-5", "claude-sonnet-5", "claude-opus-5-5"];
  const model = (text: string) => complete(text, text.length, { cwd, commands: ["model"], arguments: commandArguments(models) });
  test("the provider's ids complete as far as they agree, then in full", () => {
    expect(model("/model claude-o")).toEqual({ insert: "pus-5-5 ", candidates: [] });
    expect(model("/model claude-s")).toEqual({ insert: "onnet-5", candidates: ["claude-sonnet-5", "claude-sonnet-5-5"] });
    expect(model("/model gpt")).toEqual({ insert: "", candidates: [] });
  });

  test("only as /model's argument: elsewhere a word is a path", () => {
    expect(model("tell claude-o")).toEqual({ insert: "", candidates: [] });
  });
});

describe("paths", () => {
  test("relative to the working directory: a unique match completes (a directory with /, a file with a space)", () => {
    expect(at("look at sr")).toEqual({ insert: "c/", candidates: [] });
    expect(at("look at src/ui/input-")).toEqual({ insert: "render.ts ", candidates: [] });
    expect(at("READ")).toEqual({ insert: "ME.md ", candidates: [] });
  });

  test("several matches complete as far as they agree and are listed", () => {
    expect(at("src/ui/in")).toEqual({ insert: "put", candidates: ["input-render.ts", "input.ts"] });
    expect(at("src/")).toEqual({ insert: "", candidates: ["agent/", "main.ts", "ui/"] });
  });

  test("hidden files only when the word starts with a dot; a symlink to a directory is a directory", () => {
    expect(at("./")!.candidates).not.toContain(".env");
    expect(at(".e")).toEqual({ insert: "nv ", candidates: [] });
    expect(at("linked")).toEqual({ insert: "-docs/", candidates: [] });
  });

  test("~/ is the home directory", () => {
    expect(at("~/no")).toEqual({ insert: "tes/", candidates: [] });
  });

  test("the word is the text before the cursor, on its line", () => {
    expect(at("first line\nsr")).toEqual({ insert: "c/", candidates: [] });
    expect(at("sr and more", 2)).toEqual({ insert: "c/", candidates: [] });
  });

  test("nothing before the cursor is no word (Tab stays a tab); no match or no such directory offers nothing", () => {
    expect(at("")).toBeUndefined();
    expect(at("two words ")).toBeUndefined();
    expect(at("zzz")).toEqual({ insert: "", candidates: [] });
    expect(at("no/such/dir/x")).toEqual({ insert: "", candidates: [] });
  });
});
