import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { AWL, e2eFixture, sessionFiles } from "./awl";
import { hasTmux, Terminal } from "./tmux";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

async function twoSessions() {
  fx.server.reply({ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "toolUse", name: "bash", input: { command: "true" } }] }, { blocks: [{ type: "text", text: "b" }] });
  await fx.run(["-p", "first prompt"]);
  await fx.run(["-p", "second prompt"]);
  return sessionFiles(fx.sessions);
}

describe("awl sessions", () => {
  test("with no sessions says so in one line, exit 0", async () => {
    const run = await fx.run(["sessions"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    expect(run.stdout).toMatch(/no sessions/i);
  });

  test("piped, prints the spec's lines oldest first with unique short ids", async () => {
    const [a, b] = await twoSessions();
    const run = await fx.run(["sessions"]);
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^[0-9a-f-]{8,}  \d{4}-\d\d-\d\d \d\d:\d\d  3 messages  first prompt$/);
    expect(rows[1]).toMatch(/  5 messages  second prompt$/);
    const shortA = rows[0]!.split("  ")[0]!;
    const shortB = rows[1]!.split("  ")[0]!;
    expect(shortA.length).toBe(shortB.length);
    expect(shortA).not.toBe(shortB);
    expect(a!.includes(`_${shortA}`)).toBe(true);
    expect(b!.includes(`_${shortB}`)).toBe(true);
    expect((await fx.run(["sessions", "--plain"])).stdout).toBe(run.stdout);
  });

  test("--json prints the SessionInfo fields", async () => {
    await twoSessions();
    const list = JSON.parse((await fx.run(["sessions", "--json"])).stdout);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ cwd: fx.project, messageCount: 3, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    for (const key of ["path", "created", "modified"]) expect(list[0][key]).toBeString();
  });

  test("a damaged session is listed as damaged, not a crash", async () => {
    const [a] = await twoSessions();
    const text = await Bun.file(a!).text();
    const broken = text.split("\n");
    broken[1] = "{this is not json";
    writeFileSync(a!, broken.join("\n"));
    const run = await fx.run(["sessions"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/damaged/);
    expect(run.stdout.trim().split("\n")).toHaveLength(2);
  });

  test.skipIf(!hasTmux)("on a terminal, a list to pick from: Enter resumes the choice, Esc leaves", async () => {
    await twoSessions();
    const term = new Terminal();
    try {
      term.start([AWL, "sessions"], { cwd: fx.project, env: fx.env });
      await term.waitFor(/second prompt/);
      term.keys("Escape");
      await term.waitFor(/\[exited 0\]/);
    } finally {
      term.close();
    }
    const pick = new Terminal();
    try {
      pick.start([AWL, "sessions"], { cwd: fx.project, env: fx.env });
      await pick.waitFor(/first prompt/);
      pick.keys("Enter");
      await pick.waitFor(/resumed/);
      await pick.waitFor(/second prompt/);
      pick.keys("C-d");
      await pick.waitFor(/\[exited 0\]/);
    } finally {
      pick.close();
    }
  });
});
