// Session titles through the binary: the REPL asks the provider's cheapest
// current model for a title after the first answer and records that request;
// the first prompt names a session at once, the model's title replaces it;
// /rename gives a title no model replaces; the title shows in `awl sessions`
// and finds the session for --resume, after 10 MB more of conversation.
import { describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";

const fx = useE2eFixture();
const term = useTerminal();
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const log = (file: string) => readLog(file);
const titles = { AWL_TITLES: "on", AWL_MODEL: "anthropic/claude-sonnet-4-5" };

function send(line: string): void {
  term.type(line);
  term.keys("Enter");
}

describe.skipIf(!hasTmux)("session titles", () => {
  test("after the first answer a model-written title replaces the first prompt; /rename wins over it for good", async () => {
    fx.server.reply(text("The offset is dropped by slice(0, 19)."), text("Date offset parsing bug"), text("second answer"));
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, ...titles }, width: 140 });
    await term.waitFor(/\/help for commands/);
    send("why does parseDate ignore the +02:00 offset?");
    await term.waitFor(/slice\(0, 19\)/);
    const [file] = sessionFiles(fx.sessions);
    const infos = () => log(file!).filter((l) => l.type === "session_info");
    // The first prompt named the session at once, right after its entry.
    expect(log(file!)[3]).toMatchObject({ type: "session_info", title: "why does parseDate ignore the +02:00 offset?", source: "auto" });
    expect(log(file!)[3].model).toBeUndefined();
    // The title request is the second one, to the cheapest current Anthropic model; its title is the later one.
    for (let i = 0; i < 200 && infos().length < 2; i++) await Bun.sleep(25);
    expect(fx.server.requests[1]!.body.model).toBe("claude-haiku-4-5");
    expect(infos()).toHaveLength(2);
    expect(infos()[1]).toMatchObject({
      title: "Date offset parsing bug",
      source: "auto",
      provider: "anthropic",
      model: "claude-haiku-4-5",
      usage: { input: expect.any(Number), output: expect.any(Number) },
    });

    send("/rename Release checklist for v2");
    await term.waitFor(/Renamed: Release checklist for v2/);
    send("/session");
    await term.waitFor(/Session  [0-9a-f-]+  "Release checklist for v2"/);
    send("and the tests?");
    await term.waitFor(/second answer/);
    expect(fx.server.requests).toHaveLength(3); // no second title request
    send("/quit");
    await term.waitFor(/\[exited 0\]/);

    // 10 MB more written after it (entries of a kind the context skips, so the resume below needs no compaction),
    // then the title still lists and resumes.
    const lines = log(file!);
    let parent = lines.at(-1).id as string;
    const big = "x".repeat(1_000_000);
    for (let i = 0; i < 11; i++) {
      const id = `big0000${i.toString(16)}`;
      const entry = { type: "x_note", id, parentId: parent, timestamp: new Date().toISOString(), note: big };
      appendFileSync(file!, `${JSON.stringify(entry)}\n`);
      parent = id;
    }
    const listed = await fx.run(["sessions"]);
    expect(listed.stdout).toContain("Release checklist for v2");
    fx.server.reply(text("resumed by title"));
    const resumed = await fx.run(["-p", "go on", "--resume", "CHECKLIST"]);
    expect(resumed).toMatchObject({ code: 0, stdout: "resumed by title\n" });
  });
});

describe("titles without a terminal", () => {
  test("-p writes only the first prompt's title, which the listing shows and --resume finds", async () => {
    fx.server.reply(text("one"), text("two"), text("three"), text("four"));
    await fx.run(["-p", "Investigate the cache eviction bug\nand the rest of the prompt"], { env: titles });
    await fx.run(["-p", "Unrelated work on docs"], { env: titles });
    expect(fx.server.requests).toHaveLength(2); // no title request
    const written = sessionFiles(fx.sessions).map((file) => log(file).filter((l) => l.type === "session_info"));
    expect(written.map((infos) => infos.map((l) => [l.title, l.source, l.model]))).toEqual(
      expect.arrayContaining([[["Investigate the cache eviction bug", "auto", undefined]], [["Unrelated work on docs", "auto", undefined]]]),
    );
    expect((await fx.run(["sessions"])).stdout).toMatch(/  3 messages  Investigate the cache eviction bug$/m);
    const resumed = await fx.run(["-p", "more", "--resume", "eviction"]);
    expect(resumed).toMatchObject({ code: 0, stdout: "three\n" });
    expect((await fx.run(["-p", "more", "--resume", "BUG"])).stdout).toBe("four\n"); // only one title holds it
    const several = await fx.run(["-p", "x", "--resume", "o"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("matches 2 sessions by title");
  });
});
