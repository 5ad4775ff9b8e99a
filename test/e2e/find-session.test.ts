// What `--resume`, `awl export` and `awl rewind` were given, found as the
// person means it: a whole id from any directory, else an id prefix here, else
// words of a title here (never a prompt); several matches are listed (exit 2)
// or, at a terminal, offered in the picker; and every id awl prints finds the
// session it names. Runs the compiled binary against the test server.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();

const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const header = (file: string) => JSON.parse(readFileSync(file, "utf8").split("\n")[0]!);
/** The texts of the user messages a request sent. */
const prompts = (body: { messages: { role: string; content: string | { type: string; text?: string }[] }[] }) =>
  body.messages.filter((m) => m.role === "user").flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.flatMap((b) => (b.type === "text" ? [b.text!] : []))));

/** Sessions started here with these first prompts (their titles); their ids, in order. */
async function sessionsTitled(...titles: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) {
    fx.server.reply(text(`answer to ${title}`));
    expect((await fx.run(["-p", title])).code).toBe(0);
    const known = new Set(ids);
    ids.push(sessionFiles(fx.sessions).map(header).find((h) => !known.has(h.id))!.id);
  }
  return ids;
}

/** The id of the session `awl export <given>` finds from `cwd` (its log's header). */
async function exported(given: string, cwd = fx.project): Promise<string> {
  const run = await fx.run(["export", given, "--jsonl"], { cwd });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout.split("\n")[0]!).id;
}

describe("--resume with words of a title", () => {
  test("-p --resume 'two words' continues the session whose title holds them; it is never taken as the prompt", async () => {
    await sessionsTitled("fix the flaky test in ci", "write the release notes");
    fx.server.reply(text("going on"));
    const run = await fx.run(["-p", "go on", "--resume", "flaky test"]);
    expect(run).toMatchObject({ code: 0, stdout: "going on\n" });
    expect(prompts(fx.server.requests.at(-1)!.body)).toEqual(["fix the flaky test in ci", "go on"]);
    // A bare -p with title words: the words name the session, so there is no prompt (and nothing waits for the model).
    const bare = await fx.run(["-p", "--resume", "release notes"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("-p needs a prompt");
    expect(fx.server.requests).toHaveLength(3);
  });

  test("several titles hold the words: exit 2 listing them; none: exit 2; nothing is sent", async () => {
    const [a, b] = await sessionsTitled("flaky test in ci", "flaky test on macos", "release notes");
    const several = await fx.run(["-p", "x", "--resume", "flaky test"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("'flaky test' matches 2 sessions by title");
    expect(several.stderr).toContain("flaky test in ci");
    expect(several.stderr).toContain("flaky test on macos");
    expect(several.stderr).not.toContain("release notes");
    for (const id of [a!, b!]) expect(several.stderr).toMatch(new RegExp(`^  ${id.slice(0, 8)}`, "m"));
    const none = await fx.run(["-p", "x", "--resume", "no such words"]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe("awl: no session in this directory matches 'no such words' by id or title (awl sessions lists them)");
    expect(fx.server.requests).toHaveLength(3);
  });
});

describe("a whole id from any directory", () => {
  test("--resume, awl export and awl rewind take a session's whole id from another directory; a prefix there is refused, naming the whole id", async () => {
    const [id] = await sessionsTitled("the only prompt");
    const elsewhere = join(fx.root, "elsewhere");
    mkdirSync(elsewhere);
    fx.server.reply(text("from elsewhere"));
    const resumed = await fx.run(["-p", "again", "--resume", id!], { cwd: elsewhere });
    expect(resumed).toMatchObject({ code: 0, stdout: "from elsewhere\n" });
    expect(resumed.stderr).toContain(`This session was started in ${fx.project}; its tools now run here, in ${elsewhere}.`);
    const sent = prompts(fx.server.requests.at(-1)!.body);
    expect([sent[0], sent.at(-1)]).toEqual(["the only prompt", "again"]); // and, between them, the model is told where the tools run now
    expect(await exported(id!, elsewhere)).toBe(id!);
    const tree = JSON.parse((await fx.run(["sessions", "tree", id!, "--json"], { cwd: elsewhere })).stdout) as { id: string; text: string }[];
    const first = tree.find((n) => n.text === "answer to the only prompt")!;
    const rewound = await fx.run(["rewind", id!, "--to", first.id, "--conversation", "--yes"], { cwd: elsewhere });
    expect(rewound.code).toBe(0);
    // The id it prints for going on is the whole one: a prefix does not find a session of another directory.
    expect(rewound.stdout).toContain(`awl --resume ${id} goes on from there.`);
    const prefix = await fx.run(["-p", "x", "--resume", id!.slice(0, 13)], { cwd: elsewhere });
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toContain(`session ${id} of ${fx.project} does: give its whole id to open it from here`);
  });
});

describe("ids awl prints", () => {
  test("three forks taken in one minute: titled '<parent title> (fork N)', and every prefix awl sessions and rewind print finds its session", async () => {
    const [parent] = await sessionsTitled("refactor the parser");
    for (const n of [1, 2, 3]) {
      fx.server.reply(text(`fork answer ${n}`));
      expect((await fx.run(["--resume", parent!, "--fork", "-p", `fork prompt ${n}`])).code).toBe(0);
    }
    const listed = (await fx.run(["sessions", "--plain"])).stdout.trim().split("\n");
    expect(listed).toHaveLength(4);
    const rows = listed.map((line) => ({ prefix: line.split(" ")[0]!, line }));
    const ids = sessionFiles(fx.sessions).map((f) => header(f).id as string);
    for (const { prefix, line } of rows) {
      const id = await exported(prefix);
      expect(ids.filter((i) => i.startsWith(prefix))).toEqual([id]);
      const forkOf = /fork of (\S+) at/.exec(line)?.[1];
      if (forkOf) expect(await exported(forkOf)).toBe(parent!);
    }
    const titles = listed.map((line) => /  (refactor the parser.*)$/.exec(line)?.[1]).sort();
    expect(titles).toEqual(["refactor the parser", "refactor the parser (fork 1)", "refactor the parser (fork 2)", "refactor the parser (fork 3)"]);
    // A fork's title finds it.
    fx.server.reply(text("in fork 2"));
    expect(await fx.run(["-p", "more", "--resume", "(fork 2)"])).toMatchObject({ code: 0, stdout: "in fork 2\n" });
    expect(prompts(fx.server.requests.at(-1)!.body)).toEqual(["refactor the parser", "fork prompt 2", "more"]);
    // What rewind prints to go on with finds the session rewound.
    const fork1 = sessionFiles(fx.sessions).find((f) => readFileSync(f, "utf8").includes("fork prompt 1"))!;
    const tree = JSON.parse((await fx.run(["sessions", "tree", header(fork1).id, "--json"])).stdout) as { id: string; text: string }[];
    const rewound = await fx.run(["rewind", header(fork1).id, "--to", tree.find((n) => n.text === "answer to refactor the parser")!.id, "--conversation", "--yes"]);
    const goOn = /awl --resume (\S+) goes on from there/.exec(rewound.stdout)![1]!;
    expect(goOn.length).toBeLessThan(36);
    expect(await exported(goOn)).toBe(header(fork1).id);
  });
});

describe.skipIf(!hasTmux)("--resume in the REPL", () => {
  const term = useTerminal();

  test("title words open that session, not the latest with the words sent; several open the picker with only them", async () => {
    await sessionsTitled("fix the flaky test in ci", "write the release notes");
    term.start([AWL, "--resume", "flaky test"], { cwd: fx.project, env: fx.env, width: 120 });
    expect(await term.waitFor(/\/help for commands/)).toMatch(/resumed \S+ "fix the flaky test in ci"/);
    term.send("/quit");
    await term.waitFor(/Resume this session with/);
    term.close();
    expect(fx.server.requests).toHaveLength(2);

    await sessionsTitled("flaky test on macos");
    term.start([AWL, "--resume", "flaky test"], { cwd: fx.project, env: fx.env, width: 120 });
    const picker = await term.waitFor(/pick one to resume/);
    expect(picker).toContain("flaky test on macos");
    expect(picker).toContain("fix the flaky test in ci");
    expect(picker).not.toContain("write the release notes");
    term.keys("Enter"); // the most recent of them
    expect(await term.waitFor(/\/help for commands/)).toMatch(/resumed \S+ "flaky test on macos"/);
    term.send("/quit");
    await term.waitFor(/Resume this session with/);
    term.close();
    expect(fx.server.requests).toHaveLength(3);
  });
});
