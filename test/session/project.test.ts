// A directory's project (src/session/project.ts): its repository's root
// commit, cached in $XDG_CACHE_HOME/awl/project-roots.json. The cache is read
// as fact (which sessions are this project's), so it must be this user's alone.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectOf } from "../../src/session/log/project";

let dir: string;
let repo: string;
let env: Record<string, string | undefined>;
let root: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "awl-project-"));
  repo = join(dir, "repo");
  mkdirSync(repo);
  env = { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: join(dir, "cache"), GIT_CONFIG_NOSYSTEM: "1" };
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: repo, env });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "root");
  root = git("rev-parse", "HEAD").stdout.toString().trim();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const awlCache = () => join(dir, "cache", "awl");

test("the root commit is cached 0600 in a 0700 folder", () => {
  expect(projectOf(repo, env)).toEqual({ root, path: "." });
  expect(statSync(awlCache()).mode & 0o777).toBe(0o700);
  expect(statSync(join(awlCache(), "project-roots.json")).mode & 0o777).toBe(0o600);
  expect(Object.values(JSON.parse(readFileSync(join(awlCache(), "project-roots.json"), "utf8")))).toEqual([root]);
});

test("a cache in a folder others may enter is not believed, and the folder is made anew before awl writes there", () => {
  mkdirSync(awlCache(), { recursive: true });
  chmodSync(awlCache(), 0o777);
  writeFileSync(join(awlCache(), "project-roots.json"), JSON.stringify({ [join(repo, ".git")]: "f".repeat(40) }));
  const victim = join(dir, "bashrc");
  writeFileSync(victim, "mine\n");
  symlinkSync(victim, join(awlCache(), `project-roots.json.${process.pid}.tmp`));
  expect(projectOf(repo, env)).toEqual({ root, path: "." });
  expect(readFileSync(victim, "utf8")).toBe("mine\n");
  expect(statSync(awlCache()).mode & 0o777).toBe(0o700);
  expect(readdirSync(awlCache())).toEqual(["project-roots.json"]);
});

test("a link planted where the cache's temporary file went is not written through", () => {
  mkdirSync(awlCache(), { recursive: true, mode: 0o700 });
  const victim = join(dir, "bashrc");
  writeFileSync(victim, "mine\n");
  symlinkSync(victim, join(awlCache(), `project-roots.json.${process.pid}.tmp`));
  expect(projectOf(repo, env)).toEqual({ root, path: "." });
  expect(readFileSync(victim, "utf8")).toBe("mine\n");
});
