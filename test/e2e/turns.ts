// A session of scripted turns in the checkpoint repository, as the rewind
// tests start from: each turn's tool calls run through the compiled binary
// (`-p turn N`, answered `done N`), the project's files kept after each.
import { readFileSync } from "node:fs";
import { sessionFiles, type E2eFixture } from "./awl";
import { makeRepository, projectFiles, type Block } from "../support/checkpoint-repo";

export interface Recorded {
  id: string;
  file: string;
  /** The files before the first turn, then after each. */
  states: Map<string, string>[];
  /** The session's entries as `awl sessions tree --json` gives them. */
  nodes: { id: string; parentId: string; text: string }[];
}

/** `prepare`: what the person did in the repository before the session started. */
export async function recordTurns(fx: E2eFixture, turns: Block[][], prepare?: (root: string) => void): Promise<Recorded> {
  await makeRepository(fx.project);
  prepare?.(fx.project);
  const states = [projectFiles(fx.project)];
  for (const [i, blocks] of turns.entries()) {
    fx.server.reply({ blocks }, { blocks: [{ type: "text", text: `done ${i + 1}` }] });
    const run = await fx.run(["-p", `turn ${i + 1}`, ...(i ? ["--resume"] : [])]);
    if (run.code !== 0) throw new Error(`turn ${i + 1} failed: ${run.stderr}`);
    states.push(projectFiles(fx.project));
  }
  const file = sessionFiles(fx.sessions)[0]!;
  const id = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!).id;
  const nodes = JSON.parse((await fx.run(["sessions", "tree", id, "--json"])).stdout);
  return { id, file, states, nodes };
}
