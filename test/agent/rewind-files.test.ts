// File checkpoints and rewinding files (src/agent/checkpoints.ts,
// src/agent/rewind-files.ts), tried as a person would meet them: a scripted
// session of edit, write and shell commands (sed -i, rm, mv, touch, a build
// writing an ignored file) in a git repository with an untracked file; then
// the files rewound to each turn, the rewind rewound, and a file the person
// changed afterwards left alone unless forced. Real tools, real git, a real
// session on disk; the model is the strict test server.
// AWL_LONG_TEST=1 makes the ignored build output 300 MB instead of 3 MB.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Agent } from "../../src/agent/agent";
import { Checkpoints } from "../../src/agent/checkpoints";
import { rewindFiles, previewRewind } from "../../src/agent/rewind-files";
import { parseLine, serializeEntry, SessionManager, type WrittenEntry } from "../../src/session";
import { useAgentFixture, logLines } from "./helpers";
import { bash, contents, edit, gitFiles, makeRepository, projectFiles, sha, write, type Block } from "../support/checkpoint-repo";

const fx = useAgentFixture();
const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const never = new AbortController().signal;
const BUILD_MB = process.env.AWL_LONG_TEST ? 300 : 3;
/** Each test runs the whole scripted session: 20 turns of real tools and git, on a machine that may be busy. */
const LIMIT_MS = process.env.AWL_LONG_TEST ? 600_000 : 60_000;


/** The scripted session: 20 turns, one per row. */
const TURNS: Block[][] = [
  [edit("a.txt", "alpha", "ALPHA")],
  [write("new.txt", "fresh\n")],
  [bash("sed -i 's/two/TWO/' b.txt")],
  [bash("rm src/c.txt")],
  [bash("mv new.txt moved.txt")],
  [bash("touch notes.txt && echo more >> notes.txt")],
  [bash(`mkdir -p build && head -c ${BUILD_MB * 1048576} /dev/urandom > build/out.bin && echo log > run.log`)],
  [write("a.txt", "rewritten\n"), edit("b.txt", "one", "ONE")],
  [bash("head -c 3000000 /dev/zero > huge.dat && chmod 755 moved.txt")],
  [edit("moved.txt", "fresh", "stale")],
  [bash("cp b.txt src/b-copy.txt && sed -i '1d' a.txt")],
  [write("src/c.txt", "back again\n")],
  [bash("mv moved.txt src/ && touch b.txt")],
  [edit("notes.txt", "more", "MORE")],
  [bash(`head -c ${BUILD_MB * 1048576} /dev/urandom > build/out.bin && rm -f huge.dat`)],
  [bash("sed -i 's/TWO/two/' b.txt && printf 'x\\n' > x.txt")],
  [write("x.txt", "y\n"), bash("rm src/b-copy.txt")],
  [bash("head -c 3000000 /dev/zero > huge.dat")],
  [edit("src/c.txt", "back", "forth")],
  [bash("git status --short > status.txt && rm x.txt")],
];

const tree = () => projectFiles(fx.project);
const gitDir = () => gitFiles(fx.project);
const hash = sha;

async function runSession(): Promise<{ agent: Agent; leaves: string[]; states: Map<string, string>[]; gitStart: Map<string, string> }> {
  await makeRepository(fx.project);
  const gitStart = gitDir();
  const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env });
  const leaves: string[] = [];
  const states: Map<string, string>[] = [tree()];
  for (const [i, blocks] of TURNS.entries()) {
    fx.server.reply({ blocks }, { blocks: [{ type: "text", text: `done ${i + 1}` }] });
    const result = await agent.runTurn(`turn ${i + 1}`, never, () => {});
    expect(result.stopReason).toBe("stop");
    // The state before the turn is at its prompt's parent; after it, at its last entry.
    leaves.push(agent.session.getLeafId()!);
    states.push(tree());
  }
  return { agent, leaves, states, gitStart };
}

/** The paths a recorded call touched: in file_change and bash_effects entries. */
async function touchedPaths(agent: Agent): Promise<Set<string>> {
  const lines = await logLines(agent.session.sessionFile);
  const paths = new Set<string>();
  for (const l of lines) {
    if (l.type === "file_change") paths.add(relative(fx.project, l.path));
    if (l.type === "bash_effects") for (const kind of ["created", "modified", "deleted"]) for (const p of l[kind]) paths.add(relative(fx.project, p.path));
  }
  return paths;
}

describe("checkpoints", () => {
  test("every path a shell command changed is listed, ignored files too but nothing inside an ignored folder, and .git is not touched", async () => {
    const { agent, states, gitStart } = await runSession();
    expect(gitDir()).toEqual(gitStart);
    const lines = await logLines(agent.session.sessionFile);
    const effects = lines.filter((l) => l.type === "bash_effects");
    // Each turn's changes, from the tree before and after it, against its checkpoint entries.
    const prompts = lines.flatMap((l, i) => (l.type === "message" && l.message.role === "user" && l.message.content.some((b: { type: string }) => b.type === "text") ? [i] : []));
    expect(prompts.length).toBe(TURNS.length);
    for (const [i, start] of prompts.entries()) {
      const entries = lines.slice(start, prompts[i + 1] ?? lines.length);
      const listed = new Set<string>(
        entries.flatMap((e) =>
          e.type === "file_change" ? [relative(fx.project, e.path)] : e.type === "bash_effects" ? ["created", "modified", "deleted"].flatMap((k) => e[k].map((p: { path: string }) => relative(fx.project, p.path))) : [],
        ),
      );
      const [before, after] = [states[i]!, states[i + 1]!];
      for (const path of [...before.keys(), ...after.keys()]) if (before.get(path) !== after.get(path)) expect([i + 1, listed.has(path)]).toEqual([i + 1, true]);
      for (const path of listed) expect(path.startsWith("build/")).toBe(false);
    }
    // An ignored file outside an ignored folder (run.log under *.log) is kept like an untracked one: its removal can be undone.
    const log = effects.flatMap((e: { created: { path: string; after?: string }[] }) => e.created).find((p: { path: string }) => p.path.endsWith("run.log"));
    expect(log?.after).toBe(hash(Buffer.from("log\n")));
    // Every command left an entry (the build's, for its run.log alone).
    expect(effects.length).toBe(TURNS.filter((blocks) => blocks.some((b) => b.name === "bash")).length);
    // Each entry sits between the call's message and its result.
    const checkpoint = (l: { type: string }) => l.type === "file_change" || l.type === "bash_effects";
    for (const e of lines.filter(checkpoint)) {
      let [up, down] = [lines.indexOf(e), lines.indexOf(e)];
      while (checkpoint(lines[up])) up--;
      while (checkpoint(lines[down])) down++;
      expect(lines[up].message.role).toBe("assistant");
      expect(lines[down].message.content[0].type).toBe("toolResult");
      // Each continues the conversation: its parent is the entry before it.
      expect(e.parentId).toBe(lines[lines.indexOf(e) - 1].id);
    }
    const huge = effects.flatMap((e: { untracked: { path: string; reason: string }[] }) => e.untracked).find((u: { path: string }) => u.path.endsWith("huge.dat"));
    expect(huge?.reason).toContain("larger than 2 MiB");
  }, LIMIT_MS);

  test("blobs are private and named by their bytes' SHA-256", async () => {
    const { agent } = await runSession();
    const dir = join(fx.sessions, ".blobs");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) {
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
      expect(hash(readFileSync(join(dir, name)))).toBe(name);
    }
    expect(agent.session.sessionFile.startsWith(fx.sessions)).toBe(true);
  }, LIMIT_MS);
});

describe("rewinding files", () => {
  test("to each turn: every path a call touched is as it was after that turn, or listed as not restorable; undone by rewinding again", async () => {
    const { agent, leaves, states, gitStart: gitBefore } = await runSession();
    const touched = await touchedPaths(agent);
    const latest = tree();
    for (const k of [17, 7, 3, 0, 12, 5, 20, 9]) {
      const target = k === 0 ? firstPrompt(agent) : leaves[k - 1]!;
      const done = await rewindFiles(agent.session, target);
      expect([k, done.steps.filter((s) => s.action === "refused")]).toEqual([k, []]);
      const unrestorable = new Set(done.steps.filter((s) => s.action === "not restorable").map((s) => relative(fx.project, s.path)));
      const now = contents(tree());
      const want = contents(states[k]!);
      for (const path of touched) {
        if (unrestorable.has(path)) continue;
        expect([path, now.get(path)]).toEqual([path, want.get(path)]);
      }
      // Only the 3 MB file past the per-file cap is ever beyond reach, and only where it must exist.
      for (const path of unrestorable) expect(path).toBe("huge.dat");
      expect(gitDir()).toEqual(gitBefore);
    }
    // The rewind of the rewinds: back to the state before any of them.
    const back = await rewindFiles(agent.session, leaves.at(-1)!);
    const now = contents(tree());
    // huge.dat was never removed (it could not have been put back), so it too is as the session left it.
    for (const [path, sha] of contents(latest)) expect([path, now.get(path)]).toEqual([path, sha]);
    expect(back.steps.filter((s) => s.action !== "restore")).toEqual([]);
    expect(gitDir()).toEqual(gitBefore);
  }, LIMIT_MS);

  test("a file the person changed after the agent did is refused, and then nothing is written, unless forced", async () => {
    const { agent, leaves, states } = await runSession();
    writeFileSync(join(fx.project, "a.txt"), "the person's own words\n");
    const preview = await previewRewind(agent.session, leaves[0]!);
    expect(preview.steps.find((s) => s.path.endsWith("a.txt"))).toEqual({ path: join(fx.project, "a.txt"), action: "refused", reason: "changed since awl last changed it", forceable: true });
    const untouched = tree();
    const size = statSync(agent.session.sessionFile).size;
    const done = await rewindFiles(agent.session, leaves[0]!);
    expect(done.refused).toBe(true);
    // Not a file changed, not a line written: the same rewind forced does what the refusal said.
    expect(tree()).toEqual(untouched);
    expect(statSync(agent.session.sessionFile).size).toBe(size);
    const forced = await rewindFiles(agent.session, leaves[0]!, { force: true });
    expect(forced.refused).toBe(false);
    expect(contents(tree()).get("a.txt")).toBe(contents(states[1]!).get("a.txt"));
    // And the person's words are a version the rewind kept: rewinding the forced rewind brings them back.
    const lines = await logLines(agent.session.sessionFile);
    const forcedEntry = lines.findLast((l) => l.type === "file_change" && l.path.endsWith("a.txt"));
    expect(forcedEntry.before).toBe(hash(Buffer.from("the person's own words\n")));
  }, LIMIT_MS);

  test("the preview says each path's lines added and removed, and writes nothing", async () => {
    const { agent, leaves } = await runSession();
    const before = tree();
    const preview = await previewRewind(agent.session, leaves[1]!);
    expect(tree()).toEqual(before);
    const b = preview.steps.find((s) => s.path.endsWith("b.txt"));
    expect(b).toEqual({ path: join(fx.project, "b.txt"), action: "restore", added: 1, removed: 1, removes: false });
    const moved = preview.steps.find((s) => s.path.endsWith("moved.txt"));
    expect(moved).toMatchObject({ action: "restore", removes: true });
  }, LIMIT_MS);
});

/** The first prompt's entry: the state before any call changed anything. */
function firstPrompt(agent: Agent): string {
  return agent.session.getBranch().find((e) => e.type === "message" && e.message.role === "user")!.id;
}

describe("the checkpoint example in docs/session-format.md", () => {
  const doc = readFileSync(join(import.meta.dir, "../../docs/session-format.md"), "utf8");
  const section = doc.slice(doc.indexOf("## File checkpoints"), doc.indexOf("## Other entry kinds"));
  const lines = section.slice(section.indexOf("```json\n") + 8, section.indexOf("\n```", section.indexOf("```json\n"))).split("\n");

  test("every line is what awl writes, byte for byte, and the blobs are the hashes of the bytes it names", () => {
    const kinds = lines.map((line) => {
      const parsed = parseLine(line)!;
      if (parsed.kind === "header") return "session";
      expect(serializeEntry(parsed.entry as WrittenEntry)).toBe(line);
      return parsed.entry.type;
    });
    expect(kinds).toEqual(["session", "message", "message", "file_change", "bash_effects", "message"]);
    const change = JSON.parse(lines[3]!);
    expect(change.before).toBe(hash(Buffer.from("export const TAX = 0.2;\n")));
    expect(change.after).toBe(hash(Buffer.from("export const TAX = 0.25;\n")));
    const effects = JSON.parse(lines[4]!);
    expect(effects.modified[0].git).toBe(createHash("sha1").update("blob 24\0Prices include 20% tax.\n").digest("hex"));
    expect(effects.deleted[0].before).toBe(hash(Buffer.from("old prices\n")));
  });
});

describe("a write that never reached the disk", () => {
  test("its file still holds the version before, which a rewind recognises and is not refused", async () => {
    const { agent, leaves, states } = await runSession();
    // awl stopped between the entry and the write: the entry says "after", the file holds "before".
    const path = join(fx.project, "a.txt");
    await new Checkpoints(agent.session, fx.project, fx.env).beforeChange({ path, before: readFileSync(path), after: Buffer.from("never written\n"), mode: 0o644 });
    const done = await rewindFiles(agent.session, leaves[0]!);
    expect(done.steps.filter((s) => s.action === "refused")).toEqual([]);
    expect(contents(tree()).get("a.txt")).toBe(contents(states[1]!).get("a.txt"));
  }, LIMIT_MS);
});
