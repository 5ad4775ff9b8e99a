// Bad configuration through the binary: one line on stderr, exit 2, nothing
// sent and nothing written (issue 11, item 14).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eFixture, sessionFiles, type Run } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

function usageLine(run: Run, pattern: RegExp): void {
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr.trim()).toMatch(pattern);
  expect(run.stderr).not.toContain("internal error");
  expect(run.code).toBe(2);
}

describe("a base URL fetch cannot use", () => {
  test("without a scheme, or with a bad host or port, is one line and exit 2, before anything is sent or written", async () => {
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ ANTHROPIC_BASE_URL: "localhost:8080" }, [], /^awl: ANTHROPIC_BASE_URL 'localhost:8080' has no http:\/\/ or https:\/\/ in front \(e\.g\. http:\/\/localhost:8080\)$/],
      [{ ANTHROPIC_BASE_URL: "api.anthropic.com" }, [], /ANTHROPIC_BASE_URL 'api\.anthropic\.com' has no http/],
      [{ OPENAI_BASE_URL: "http://exa mple.com/v1" }, ["--provider", "openai"], /^awl: OPENAI_BASE_URL 'http:\/\/exa mple\.com\/v1' is not a valid URL: check the host and port$/],
      [{ OPENAI_BASE_URL: "http://localhost:99999/v1" }, ["--provider", "openai"], /OPENAI_BASE_URL .* is not a valid URL/],
      [{ OPENAI_BASE_URL: "ftp://files.example.com/v1" }, ["--provider", "openai"], /must use http:\/\/ or https:\/\/, not ftp:\/\//],
    ];
    for (const [env, flags, pattern] of cases) {
      const run = await fx.run(["-p", "hello", ...flags], { env });
      usageLine(run, pattern);
    }
    expect(fx.server.requests).toHaveLength(0);
    expect(sessionFiles(fx.sessions)).toEqual([]);
  });

  test("a good one that differs only in a trailing slash still works", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "fine" }] });
    const run = await fx.run(["-p", "hello"], { env: { ANTHROPIC_BASE_URL: `${fx.server.anthropicUrl}/` } });
    expect([run.code, run.stdout]).toEqual([0, "fine\n"]);
  });
});

describe("AWL_SESSION_DIR", () => {
  test("relative is refused (exit 2) rather than scattering a session folder into every project; nothing is created", async () => {
    for (const args of [["-p", "hello"], ["sessions"], ["--resume"]]) {
      usageLine(await fx.run(args, { env: { AWL_SESSION_DIR: "my-sessions" } }), /^awl: AWL_SESSION_DIR must be an absolute path, not 'my-sessions'$/);
    }
    usageLine(await fx.run(["-p", "hello"], { env: { AWL_SESSION_DIR: "~/sessions" } }), /does not expand ~: write \$HOME\/sessions/);
    expect(readdirSync(fx.project)).toEqual([".keep"]);
    expect(fx.server.requests).toHaveLength(0);
  });

  test("a file, not a folder, is exit 2 for awl sessions (it used to say 'No sessions', exit 0) and for a prompt", async () => {
    const file = join(fx.root, "not-a-folder");
    writeFileSync(file, "precious\n");
    const listing = await fx.run(["sessions"], { env: { AWL_SESSION_DIR: file } });
    usageLine(listing, new RegExp(`^awl: the session folder ${file} \\(from AWL_SESSION_DIR\\) is not a directory$`));
    expect(listing.stdout).toBe("");
    usageLine(await fx.run(["-p", "hello"], { env: { AWL_SESSION_DIR: file } }), /is not a directory/);
    usageLine(await fx.run(["--resume", "019d"], { env: { AWL_SESSION_DIR: file } }), /is not a directory/);
    expect(await Bun.file(file).text()).toBe("precious\n");
    expect(fx.server.requests).toHaveLength(0);
  });

  test("an absolute folder that does not exist yet is created with the first message", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
    const later = join(fx.root, "later", "sessions");
    expect((await fx.run(["-p", "hello"], { env: { AWL_SESSION_DIR: later } })).code).toBe(0);
    expect(existsSync(later)).toBe(true);
    expect(sessionFiles(later)).toHaveLength(1);
  });
});
