// awl's own `git config` probe (src/agent/git-guard.ts) never blocks awl: a
// repository whose configuration includes a FIFO makes git wait forever, and
// the model's `git status` must then be asked about (or refused in read-only
// mode), with the reason, while awl's event loop keeps running.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Approvals } from "../../src/agent/approval";
import { checkCall } from "../../src/tools";

let repo: string;
beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "awl-fifo-"));
  Bun.spawnSync(["git", "init", "-q", repo]);
  Bun.spawnSync(["mkfifo", join(repo, ".git", "cfgfifo")]);
  appendFileSync(join(repo, ".git", "config"), "[include]\n\tpath = cfgfifo\n");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" };
const gitStatus = JSON.stringify({ command: "git status" });

describe("a repository whose configuration includes a FIFO", () => {
  test("git status is asked about, saying why, and awl's event loop ran while git was stuck", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const decision = await new Approvals("ask", env).decide(checkCall("bash", gitStatus), repo);
      expect(decision).toMatchObject({ action: "ask", request: { note: expect.stringContaining("git did not read the repository's configuration within 1 s") } });
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  test("in read-only mode it is refused, with the reason the model reads", async () => {
    const decision = await new Approvals("read-only", env).decide(checkCall("bash", gitStatus), repo);
    expect(decision).toMatchObject({ action: "refuse", content: expect.stringContaining("git did not read the repository's configuration") });
  });

  test("an ordinary repository's git status still runs unasked", async () => {
    const plain = mkdtempSync(join(tmpdir(), "awl-plain-"));
    try {
      Bun.spawnSync(["git", "init", "-q", plain]);
      expect(await new Approvals("ask", env).decide(checkCall("bash", gitStatus), plain)).toMatchObject({ action: "run" });
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
