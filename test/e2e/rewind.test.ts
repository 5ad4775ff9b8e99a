// `awl rewind` with files, as a person uses it from the command line: a
// session of edits, writes and shell commands in a git repository with an
// untracked file; rewinding to a turn leaves every file as it was after that
// turn, rewinding the rewind brings the later state back, a file the person
// changed since is refused unless --force, and .git is never touched.
// Runs the compiled binary against the test server.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionFiles, useE2eFixture } from "./awl";
import { bash, contents, edit, gitFiles, makeRepository, projectFiles, write, type Block } from "../support/checkpoint-repo";

const fx = useE2eFixture();


const TURNS: Block[][] = [
  [edit("a.txt", "alpha", "ALPHA")],
  [write("new.txt", "fresh\n"), bash("sed -i 's/two/TWO/' b.txt")],
  [bash("rm notes.txt && mv new.txt src/moved.txt && echo log > run.log")],
  [edit("src/c.txt", "see", "saw"), bash("printf 'x\\n' > x.txt && chmod 755 x.txt")],
];

interface Session {
  id: string;
  file: string;
  /** The files before the first turn, then after each. */
  states: Map<string, string>[];
  /** The entries whose state is each of `states`: the first prompt, then each turn's answer. */
  entries: string[];
}

async function session(): Promise<Session> {
  await makeRepository(fx.project);
  const states = [projectFiles(fx.project)];
  for (const [i, blocks] of TURNS.entries()) {
    fx.server.reply({ blocks }, { blocks: [{ type: "text", text: `done ${i + 1}` }] });
    expect((await fx.run(["-p", `turn ${i + 1}`, ...(i ? ["--resume"] : [])])).code).toBe(0);
    states.push(projectFiles(fx.project));
  }
  const file = sessionFiles(fx.sessions)[0]!;
  const id = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!).id;
  const nodes: { id: string; text: string }[] = JSON.parse((await fx.run(["sessions", "tree", id, "--json"])).stdout);
  const entries = ["turn 1", ...TURNS.map((_, i) => `done ${i + 1}`)].map((text) => nodes.find((n) => n.text === text)!.id);
  return { id, file, states, entries };
}

const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("awl rewind, the conversation and the files", () => {
  test("to each turn and back: every file as it was after that turn, the rewind recorded and undone, .git untouched", async () => {
    const s = await session();
    const gitStart = gitFiles(fx.project);
    for (const k of [2, 0, 4, 1, 3]) {
      const size = readFileSync(s.file).length;
      const run = await fx.run(["rewind", s.id.slice(0, 8), "--to", s.entries[k]!, "--yes"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Rewound session ${s.id.slice(0, 8)} back to ${s.entries[k]}`);
      expect(projectFiles(fx.project)).toEqual(s.states[k]!);
      expect(gitFiles(fx.project)).toEqual(gitStart);
      // The rewind is appended: the files' entries first, then the move; nothing before it changed.
      const added = readFileSync(s.file).subarray(size).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(added.at(-1)).toMatchObject({ type: "leaf", targetId: s.entries[k] });
      expect(added.slice(0, -1).every((e) => e.type === "file_change")).toBe(true);
    }
    // The conversation went with the files: the next turn follows the last entry gone back to, on a new branch.
    fx.server.reply({ blocks: [bash("echo new > y.txt && sed -i 's/ALPHA/again/' a.txt")] }, { blocks: [{ type: "text", text: "after" }] });
    expect((await fx.run(["--resume", s.id, "-p", "next"])).code).toBe(0);
    const sent = fx.server.requests.at(-1)!.body.messages.flatMap((m: any) => m.content.flatMap((b: any) => (b.type === "text" ? [b.text] : [])));
    expect(sent).toEqual(["turn 1", "done 1", "turn 2", "done 2", "turn 3", "done 3", "next"]);
    // The branch left behind is reachable with its files: bash's changes on the new branch are undone too.
    expect((await fx.run(["rewind", s.id, "--to", s.entries[4]!, "--yes"])).code).toBe(0);
    expect(projectFiles(fx.project)).toEqual(s.states[4]!);
    expect(gitFiles(fx.project)).toEqual(gitStart);
  }, 120_000);

  test("a file the person changed since is refused (exit 1, the rest restored) until --force; --dry-run changes nothing", async () => {
    const s = await session();
    writeFileSync(join(fx.project, "a.txt"), "the person's own words\n");
    const edited = projectFiles(fx.project);
    const size = readFileSync(s.file).length;
    const dry = await fx.run(["rewind", s.id, "--to", s.entries[0]!, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Would rewind");
    expect(dry.stdout).toMatch(/a\.txt {2}refused: changed since awl last changed it/);
    expect(dry.stdout).toMatch(/b\.txt {2}\+1 -1/);
    expect(dry.stdout).toMatch(/x\.txt {2}removed \+0 -1/);
    expect(projectFiles(fx.project)).toEqual(edited);
    expect(readFileSync(s.file).length).toBe(size);

    // No terminal to ask on, no --yes: one line, named once, nothing changed.
    const unasked = await fx.run(["rewind", s.id, "--to", s.entries[0]!]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toBe("awl: rewind asks before it changes a session; without a terminal, add --yes\n");
    expect(projectFiles(fx.project)).toEqual(edited);

    const refused = await fx.run(["rewind", s.id, "--to", s.entries[0]!, "--files", "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--force overwrites them");
    const now = contents(projectFiles(fx.project));
    expect(now.get("a.txt")).toBe(contents(edited).get("a.txt"));
    now.delete("a.txt");
    const want = contents(s.states[0]!);
    want.delete("a.txt");
    expect(now).toEqual(want);
    // --files leaves the conversation where it was.
    expect(lines(s.file).at(-1)).toMatchObject({ type: "file_change" });

    const forced = await fx.run(["rewind", s.id, "--to", s.entries[0]!, "--files", "--yes", "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("overwriting changes made since");
    expect(projectFiles(fx.project)).toEqual(s.states[0]!);
  }, 120_000);

  test("--conversation leaves the files; an entry that is not a message, compaction or branch summary is exit 2", async () => {
    const s = await session();
    const run = await fx.run(["rewind", s.id, "--to", s.entries[1]!, "--conversation", "--yes"]);
    expect(run.code).toBe(0);
    expect(projectFiles(fx.project)).toEqual(s.states[4]!);
    expect(lines(s.file).at(-1)).toMatchObject({ type: "leaf", targetId: s.entries[1] });
    const change = lines(s.file).find((e) => e.type === "file_change");
    const wrong = await fx.run(["rewind", s.id, "--to", change.id, "--yes"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("only messages, compactions and branch summaries");
    expect((await fx.run(["rewind", s.id, "--to", s.entries[1]!, "--files", "--conversation"])).code).toBe(2);
  }, 120_000);
});
