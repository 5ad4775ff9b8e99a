// Going back, as a person does it from the command line: --at, a kill -9 in
// the middle of the next turn, --resume; forks (-p too); `awl sessions tree`;
// `awl rewind`. Runs the compiled binary against the test server.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { prng } from "../support/prng";

const fx = useE2eFixture();

interface Node {
  id: string;
  parentId: string | null;
  kind: string;
  role: string | null;
  text: string;
  label: string | null;
  time: string;
  active: boolean;
}

async function treeOf(id: string): Promise<Node[]> {
  const run = await fx.run(["sessions", "tree", id, "--json"]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

/** The texts of the conversation on the path to `id` (system prompt aside), oldest first. */
function pathTexts(nodes: Node[], id: string): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const texts: string[] = [];
  for (let n = byId.get(id); n; n = n.parentId === null ? undefined : byId.get(n.parentId)) if (n.kind === "message" && n.role !== "system") texts.push(n.text);
  return texts.reverse();
}

/** Every text block the request sent, in order (consecutive user messages may be merged: the texts are what counts). */
const sentTexts = (body: { messages: { content: { type: string; text?: string }[] }[] }) =>
  body.messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text!] : [])));

/** A session of `turns` prompt/answer pairs; its id. */
async function started(turns: number): Promise<string> {
  for (let i = 1; i <= turns; i++) {
    fx.server.reply({ blocks: [{ type: "text", text: `answer ${i}` }] });
    expect((await fx.run(["-p", `prompt ${i}`, ...(i > 1 ? ["--resume"] : [])])).code).toBe(0);
  }
  return JSON.parse(readFileSync(sessionFiles(fx.sessions)[0]!, "utf8").split("\n")[0]!).id;
}

describe("--resume --at", () => {
  const rounds = Number(process.env.AWL_BRANCH_ROUNDS ?? 20);
  test(`moves, survives kill -9 mid-turn, and --resume goes on from the move (${rounds} rounds)`, async () => {
    const id = await started(3);
    const file = sessionFiles(fx.sessions)[0]!;
    const random = prng(19);
    for (let round = 0; round < rounds; round++) {
      const nodes = await treeOf(id);
      const targets = nodes.filter((n) => n.kind === "message" && n.role !== "system");
      const target = random.pick(targets);
      const before = readFileSync(file);
      // The next turn's answer never comes: awl is killed while it waits.
      fx.server.reply({ blocks: [{ type: "text", text: "never" }], fault: { midStream: "stall", afterEvents: 0 } });
      let asked = false;
      fx.server.onRequest = () => void (asked = true);
      const child = Bun.spawn([AWL, "--resume", id.slice(0, 13), "--at", target.id.slice(0, 6), "-p", `round ${round}`], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
      while (!asked) await Bun.sleep(5);
      child.kill("SIGKILL");
      await child.exited;
      fx.server.onRequest = undefined;
      expect(readFileSync(file).subarray(0, before.length).equals(before)).toBe(true);

      fx.server.reply({ blocks: [{ type: "text", text: `after ${round}` }] });
      expect((await fx.run(["--resume", id.slice(0, 13), "-p", `then ${round}`])).code).toBe(0);
      const sent = fx.server.requests.at(-1)!.body;
      expect(sentTexts(sent)).toEqual([...pathTexts(nodes, target.id), `round ${round}`, `then ${round}`]);
    }
  }, 600_000);

  test("an entry that is not a message, compaction or branch summary, or an unknown prefix, exits 2", async () => {
    const id = await started(1);
    const nodes = await treeOf(id);
    expect((await fx.run(["--resume", id, "--at", "zzzzzz", "-p", "x"])).code).toBe(2);
    expect(nodes.some((n) => n.kind === "message")).toBe(true);
    expect((await fx.run(["--at", nodes[1]!.id, "-p", "x"])).code).toBe(2); // --at without --resume
  });
});

describe("forks", () => {
  test("--fork -p writes a new session: the parent's path lines byte for byte, the parent untouched; awl sessions shows the lineage", async () => {
    const id = await started(2);
    const parent = sessionFiles(fx.sessions)[0]!;
    const parentBytes = readFileSync(parent);
    const nodes = await treeOf(id);
    const firstAnswer = nodes.find((n) => n.text === "answer 1")!;
    fx.server.reply({ blocks: [{ type: "text", text: "in the fork" }] });
    const run = await fx.run(["--resume", id, "--fork", "--at", firstAnswer.id, "-p", "fork prompt"]);
    expect(run).toMatchObject({ code: 0, stdout: "in the fork\n" });
    expect(run.stderr).toContain("Forked session");
    expect(readFileSync(parent).equals(parentBytes)).toBe(true);
    const child = sessionFiles(fx.sessions).find((f) => f !== parent)!;
    const childLines = readFileSync(child, "utf8").split("\n");
    const parentLines = parentBytes.toString("utf8").split("\n");
    expect(JSON.parse(childLines[0]!).forkedFrom).toEqual({ session: id, entry: firstAnswer.id });
    // system, prompt 1, answer 1 (prompt 1's title, the parent's line 4, is bookkeeping, not on the path)
    expect(childLines.slice(1, 4)).toEqual([1, 2, 4].map((i) => parentLines[i]!));
    expect(sentTexts(fx.server.requests.at(-1)!.body)).toEqual(["prompt 1", "answer 1", "fork prompt"]);
    const listed = await fx.run(["sessions", "--plain"]);
    // The parent's id as the rows show it: a prefix that tells the two apart (they were started within a minute).
    const shown = listed.stdout.split("\n").map((line) => line.split(" ")[0]!).find((prefix) => id.startsWith(prefix))!;
    expect(listed.stdout).toContain(`fork of ${shown} at ${firstAnswer.id}`);
  });
});

describe("awl sessions tree and awl rewind", () => {
  test("the tree marks the active path; rewind --conversation --yes moves the leaf, --dry-run does not; no terminal and no --yes is exit 2", async () => {
    const id = await started(2);
    const file = sessionFiles(fx.sessions)[0]!;
    const nodes = await treeOf(id);
    // the conversation is all on the active path; the first prompt's title hangs off it
    expect(nodes.filter((n) => n.kind !== "session_info").every((n) => n.active)).toBe(true);
    const title = nodes.find((n) => n.kind === "session_info")!;
    expect(title).toMatchObject({ text: "title: prompt 1", active: false, parentId: nodes.find((n) => n.text === "prompt 1")!.id });
    const firstAnswer = nodes.find((n) => n.text === "answer 1")!;
    const size = readFileSync(file).length;
    expect((await fx.run(["rewind", id, "--to", firstAnswer.id, "--dry-run"])).code).toBe(0);
    expect((await fx.run(["rewind", id, "--to", firstAnswer.id])).code).toBe(2);
    expect(readFileSync(file).length).toBe(size);
    const moved = await fx.run(["rewind", id, "--to", firstAnswer.id, "--conversation", "--yes"]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain("the conversation only");
    const after = await treeOf(id);
    expect(after.filter((n) => n.active).map((n) => n.text)).toEqual([after[0]!.text, "prompt 1", "answer 1"]);
    expect(after.at(-1)).toMatchObject({ kind: "leaf", active: false });
    const drawn = await fx.run(["sessions", "tree", id]);
    expect(drawn.stdout).toContain("prompt 2");
  });
});
