// A prompt named as a target means the moment before it was sent, for
// `awl rewind --to`, `--resume --at` and `--resume --fork --at` alike: the
// prompt is left out of the conversation (never sent again by itself) and
// offered back; `awl rewind --undo` undoes the latest rewind and, again,
// redoes it, saying where each goes. Runs the compiled binary against the
// test server, in a real repository.
import { describe, expect, test } from "bun:test";
import { useE2eFixture } from "./awl";
import { recordTurns } from "./turns";
import { edit, projectFiles, write, type Block } from "../support/checkpoint-repo";

const fx = useE2eFixture();

const TURNS: Block[][] = [[edit("a.txt", "alpha", "ALPHA")], [write("new.txt", "fresh\n")], [edit("b.txt", "two", "TWO")]];

interface Session {
  id: string;
  /** The files after each turn (index 0: before the first). */
  states: Map<string, string>[];
  /** Each turn's prompt and answer entries. */
  prompts: string[];
  answers: string[];
}

async function session(): Promise<Session> {
  const { id, states, nodes } = await recordTurns(fx, TURNS);
  const find = (text: string) => nodes.find((n) => n.text === text)!.id;
  return { id, states, prompts: TURNS.map((_, i) => find(`turn ${i + 1}`)), answers: TURNS.map((_, i) => find(`done ${i + 1}`)) };
}

/** The texts of the last request's messages. */
function sent(): string[] {
  return fx.server.requests.at(-1)!.body.messages.flatMap((m: any) => m.content.flatMap((b: any) => (b.type === "text" ? [b.text] : [])));
}

/** Sends `prompt` in the session from where it is; the texts the model was sent. */
async function next(id: string, prompt: string): Promise<string[]> {
  fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
  expect((await fx.run(["--resume", id, "-p", prompt])).code).toBe(0);
  return sent();
}

describe("a prompt as a target means before it", () => {
  test("awl rewind --to <prompt> goes back to before it, names it and prints it; the next prompt does not carry it", async () => {
    const s = await session();
    const run = await fx.run(["rewind", s.id, "--to", s.prompts[1]!, "--yes"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`back to before the prompt ${s.prompts[1]} (turn 2)`);
    expect(run.stdout).toContain("The prompt left out, to send again or change:\n  turn 2");
    expect(projectFiles(fx.project)).toEqual(s.states[1]!);
    expect(await next(s.id, "instead")).toEqual(["turn 1", "done 1", "instead"]);
  }, 120_000);

  test("--resume --at <prompt> goes on from before it and offers it back; --fork --at <prompt> forks before it", async () => {
    const s = await session();
    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
    const at = await fx.run(["--resume", s.id, "--at", s.prompts[2]!, "-p", "instead"]);
    expect(at.code).toBe(0);
    expect(at.stderr).toContain(`Going on from before the prompt ${s.prompts[2]}`);
    expect(at.stderr).toContain("Left out, to send again or change: turn 3");
    expect(sent()).toEqual(["turn 1", "done 1", "turn 2", "done 2", "instead"]);

    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
    const fork = await fx.run(["--resume", s.id, "--fork", "--at", s.prompts[1]!, "-p", "forked"]);
    expect(fork.code).toBe(0);
    expect(fork.stderr).toContain(`at entry ${s.answers[0]}, before the prompt ${s.prompts[1]},`);
    expect(fork.stderr).toContain("Left out, to send again or change: turn 2");
    expect(sent()).toEqual(["turn 1", "done 1", "forked"]);
  }, 120_000);

  test("awl rewind --undo undoes the latest rewind, saying where it goes; again, it redoes it", async () => {
    const s = await session();
    expect((await fx.run(["rewind", s.id, "--undo", "--yes"])).stderr).toContain("has no rewind to undo");
    expect((await fx.run(["rewind", s.id, "--to", s.prompts[1]!, "--yes"])).code).toBe(0);
    expect(projectFiles(fx.project)).toEqual(s.states[1]!);

    const undo = await fx.run(["rewind", s.id, "--undo", "--yes"]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain("back to after “turn 3”");
    expect(projectFiles(fx.project)).toEqual(s.states[3]!);

    const redo = await fx.run(["rewind", s.id, "--undo", "--yes"]);
    expect(redo.code).toBe(0);
    expect(redo.stdout).toContain("back to after “turn 1”");
    expect(projectFiles(fx.project)).toEqual(s.states[1]!);
    expect(await next(s.id, "next")).toEqual(["turn 1", "done 1", "next"]);
  }, 120_000);
});
