// `awl rewind` with files, as a person uses it from the command line: a
// session of edits, writes and shell commands in a git repository with an
// untracked file; rewinding to a turn leaves every file as it was after that
// turn, rewinding the rewind brings the later state back, a file the person
// changed since is refused unless --force, and .git is never touched.
// Runs the compiled binary against the test server.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useE2eFixture } from "./awl";
import { recordTurns } from "./turns";
import { bash, edit, gitFiles, projectFiles, write, type Block } from "../support/checkpoint-repo";

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
  /** The entries whose state is each of `states`: the one before the first prompt, then each turn's answer. */
  entries: string[];
}

async function session(): Promise<Session> {
  const { id, file, states, nodes } = await recordTurns(fx, TURNS);
  const entries = [nodes.find((n) => n.text === "turn 1")!.parentId, ...TURNS.map((_, i) => nodes.find((n) => n.text === `done ${i + 1}`)!.id)];
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

  test("a file the person changed since is refused and then nothing changes (exit 1) until the same command with --force; --dry-run changes nothing", async () => {
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

    // Refused: nothing is written, files and conversation alike, so the same command with --force does what it said.
    const refused = await fx.run(["rewind", s.id, "--to", s.entries[0]!, "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("awl: nothing was changed: 1 file changed since awl last changed it; --force overwrites it\n");
    expect(refused.stdout).toMatch(/a\.txt {2}refused: changed since awl last changed it/);
    expect(projectFiles(fx.project)).toEqual(edited);
    expect(readFileSync(s.file).length).toBe(size);

    const forced = await fx.run(["rewind", s.id, "--to", s.entries[0]!, "--yes", "--force"]);
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
