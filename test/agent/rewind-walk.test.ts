// A random walk over a small repository: turns of edits, writes, rm, mv,
// chmod, links (and a folder swapped for a link to a place outside the
// project), ignored files, a name that is not UTF-8 (kept by its bytes),
// the person's own edits between turns, and rewinds
// and undos with and without --force. After each rewind every path the log
// knows is byte- and mode-identical to its state at the target (the files as
// the turns on the target's path left them), or named as refused or not
// restorable; a refused rewind changes nothing; and nothing outside the
// project ever changes. Real tools, real git, the session on disk; the model
// is the test server. 60 steps; AWL_REWIND_STEPS=200 for a longer walk.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Agent } from "../../src/agent/agent";
import { rewindTo } from "../../src/agent/rewind";
import { SessionManager } from "../../src/session";
import { useAgentFixture, logLines } from "./helpers";
import { bash, edit, makeRepository, sha, write, type Block } from "../support/checkpoint-repo";
import { prng, type Random } from "../support/prng";

const fx = useAgentFixture();
const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const never = new AbortController().signal;
const STEPS = Number(process.env.AWL_REWIND_STEPS ?? 60);

/** What a path holds: "file <sha> <mode>" or "link <text>"; a folder is not a state. */
type State = Map<string, string>;

/** Every file and link under `root` but .git and the ignored build folder; a name that is not UTF-8 by its bytes, keyed as UTF-8 reads it. */
function disk(root: string): State {
  const out: State = new Map();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir, { encoding: "buffer" })) {
      const full = Buffer.concat([Buffer.from(`${dir}/`), name]);
      const rel = relative(root, full.toString("utf8"));
      if (rel === ".git" || rel === "build") continue;
      const info = lstatSync(full);
      if (info.isSymbolicLink()) out.set(rel, `link ${readlinkSync(full, "utf8")}`);
      else if (info.isDirectory()) visit(full.toString("utf8"));
      else out.set(rel, `file ${sha(readFileSync(full))} ${(info.mode & 0o777).toString(8)}`);
    }
  };
  visit(root);
  return out;
}

const FILES = ["a.txt", "b.txt", "src/c.txt", "notes.txt", "d/e.txt", "d/f.txt", ".env", "run.log", "lnk"];

/** Is `path` under `d` while `d` is a link (to the place outside)? The agent's calls stay off it: what they did there would not be the project's. */
const outsideNow = (root: string, path: string) => path.startsWith("d/") && !!lstatSync(join(root, "d"), { throwIfNoEntry: false })?.isSymbolicLink();

/** One turn's tool calls, made up from what the disk holds now. */
function turnBlocks(random: Random, root: string, n: number): Block[] {
  const blocks: Block[] = [];
  const files = FILES.filter((f) => !outsideNow(root, f));
  for (let k = random.int(1, 3); k > 0; k--) {
    const path = random.pick(files);
    const full = join(root, path);
    const info = lstatSync(full, { throwIfNoEntry: false });
    const text = info?.isFile() ? readFileSync(full, "utf8") : "";
    const token = /^v\d+/.exec(text)?.[0];
    const other = random.pick(files.filter((f) => f !== path));
    const dir = path.includes("/") ? `mkdir -p ${path.slice(0, path.lastIndexOf("/"))} && ` : "";
    switch (random.int(0, 9)) {
      case 0:
        blocks.push(token ? edit(path, token, `v${n}${k}`) : write(path, `v${n}${k}\nmore\n`));
        break;
      case 1:
        blocks.push(write(path, `v${n}${k}\n`));
        break;
      case 2:
        blocks.push(bash(`rm -f ${path}`));
        break;
      case 3:
        blocks.push(bash(`test -e ${path} && ${other.includes("/") ? `mkdir -p ${other.slice(0, other.lastIndexOf("/"))} && ` : ""}mv -f ${path} ${other} || true`));
        break;
      case 4:
        blocks.push(bash(`test -f ${path} && chmod ${random.pick(["600", "644", "755", "640"])} ${path} || true`));
        break;
      case 5:
        blocks.push(bash(`rm -rf lnk && ln -s ${random.pick(["a.txt", "b.txt"])} lnk`));
        break;
      case 6:
        blocks.push(bash(`${dir}printf 'v${n}${k}\\n' > ${path}`));
        break;
      case 7:
        // A folder swapped for a link to a place outside the project, as another branch's checkout could; the turn's last call.
        blocks.push(bash(random() < 0.5 ? "rm -rf d && ln -s ../outside d" : "rm -rf d && mkdir -p d && printf 'v\\n' > d/e.txt"));
        return blocks;
      case 8:
        blocks.push(bash(random() < 0.6 ? `printf 'v${n}${k}\\n' > $'caf\\xe9.txt'` : "rm -f $'caf\\xe9.txt'"));
        break;
      default:
        blocks.push(bash(`printf 'v${n}${k}\\n' > .env && rm -f run.log`));
    }
  }
  return blocks;
}

describe("rewind random walk", () => {
  test(`${STEPS} steps: every path as at the target, or named; a refusal changes nothing; nothing outside the project changes`, async () => {
    const random = prng(27);
    await makeRepository(fx.project);
    const root = fx.project;
    writeFileSync(join(root, ".gitignore"), "build/\n*.log\n.env\n");
    writeFileSync(join(root, ".env"), "SECRET=1\n");
    chmodSync(join(root, ".env"), 0o600);
    mkdirSync(join(root, "build"));
    writeFileSync(join(root, "build", "out.bin"), "built\n");
    const outside = join(root, "..", "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "e.txt"), "not the project's\n");
    symlinkSync("a.txt", join(root, "lnk"));
    const outsideStart = disk(outside);

    const session = SessionManager.init({ cwd: root, ...model });
    const agent = new Agent({ session, cwd: root, model, env: fx.env });
    /** The files at each resting point, as the turns on its path left them (the person's edits between turns are not the log's). */
    const states = new Map<string, State>();
    /** Each turn's resting point: the one it went on from, and the paths its calls changed. */
    const turnOf = new Map<string, { parent: string | null; changed: Set<string> }>();
    const chain = (id: string | null): string[] => (id === null ? [] : [...chain(turnOf.get(id)!.parent), id]);
    /** The paths the turns on a resting point's path changed. */
    const touched = (ids: readonly string[]) => new Set(ids.flatMap((id) => [...turnOf.get(id)!.changed]));
    const start: State = disk(root); // what a path holds until a turn changes it
    const tainted = new Set<string>(); // a path once refused for good or not restorable is not compared again
    const rewinds: { from: string }[] = [];
    let turns = 0;

    for (let step = 0; step < STEPS; step++) {
      const leaf = session.getLeafId();
      const kind = !leaf || states.size < 2 ? "turn" : random.pick(["turn", "turn", "hand", "rewind", "rewind", "undo"]);
      if (kind === "turn") {
        const size = existsSync(session.sessionFile) ? (await logLines(session.sessionFile)).length : 0; // written from the first entry on
        fx.server.reply({ blocks: turnBlocks(random, root, ++turns) }, { blocks: [{ type: "text", text: `done ${turns}` }] });
        expect((await agent.runTurn(`turn ${turns}`, never, () => {})).stopReason).toBe("stop");
        // What the turn's checkpoint entries name now holds what the turn left; the rest is as at the point it went on from.
        const state = new Map(leaf ? states.get(leaf)! : start);
        const changed = new Set<string>();
        const now = disk(root);
        for (const e of (await logLines(session.sessionFile)).slice(size)) {
          const paths = e.type === "file_change" ? [e.path] : e.type === "bash_effects" ? [...e.created, ...e.modified, ...e.deleted].map((p: { path: string }) => p.path) : [];
          for (const path of paths.map((p: string) => relative(root, p))) {
            changed.add(path);
            if (now.has(path)) state.set(path, now.get(path)!);
            else state.delete(path);
          }
        }
        states.set(session.getLeafId()!, state);
        turnOf.set(session.getLeafId()!, { parent: leaf, changed });
        continue;
      }
      if (kind === "hand") {
        // The person's own edit of a file the agent changed on this path (one changed before awl first did would be the log's "before").
        const known = [...touched(chain(leaf))].filter((path) => !outsideNow(root, path) && lstatSync(join(root, path), { throwIfNoEntry: false })?.isFile());
        if (!known.length) continue;
        const path = random.pick(known);
        if (random() < 0.5) writeFileSync(join(root, path), `the person's words ${step}\n`);
        else chmodSync(join(root, path), 0o700);
        continue;
      }
      const target = kind === "undo" && rewinds.length ? rewinds.at(-1)!.from : random.pick([...states.keys()]);
      if (target === leaf) continue;
      const force = random() < 0.4;
      const before = disk(root);
      const done = await rewindTo(session, target, { scope: "both", force, env: fx.env });
      agent.reloadConversation();
      expect(disk(outside)).toEqual(outsideStart);
      if (done.refused) {
        expect([step, disk(root)]).toEqual([step, before]);
        expect(session.getLeafId()).toBe(leaf);
        continue;
      }
      rewinds.push({ from: leaf! });
      for (const s of done.steps) if (s.action !== "restore") tainted.add(relative(root, s.path));
      // What the turns past where the two paths part changed is as at the target; anything else is as it was.
      const [from, to] = [chain(leaf), chain(target)];
      let split = 0;
      while (split < from.length && from[split] === to[split]) split++;
      const moved = touched([...from.slice(split), ...to.slice(split)]);
      const want = states.get(target)!;
      const got = disk(root);
      for (const path of new Set([...want.keys(), ...got.keys(), ...before.keys()])) {
        if (tainted.has(path) || path.startsWith("d/")) continue; // under a folder that may be a link outside: refused by name, its own rules
        expect([step, path, got.get(path)]).toEqual([step, path, (moved.has(path) ? want : before).get(path)]);
      }
    }
  }, 300_000);
});
