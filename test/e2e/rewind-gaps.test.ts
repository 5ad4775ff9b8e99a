// What a rewind used to lose without a word: an ignored file a command
// removed (`rm .env`) or changed comes back byte for byte with its mode,
// while what is inside an ignored folder (a build's output) is never
// touched; folders a turn made are removed with its files. Runs the compiled
// binary against the test server, in a real repository.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionFiles, useE2eFixture } from "./awl";
import { recordTurns } from "./turns";
import { bash, makeRepository } from "../support/checkpoint-repo";

const fx = useE2eFixture();

const SECRET = "API_TOKEN=do-not-lose\n";

describe("a rewind leaves no silent gap", () => {
  test("rm .env and a changed ignored config are undone; a build folder's output is left alone; folders the turn made go", async () => {
    const s = await recordTurns(fx, [[bash("rm .env && echo changed > config/secrets.yml && mkdir -p gen/deep && echo x > gen/deep/out.txt && echo out > build/o.txt")]], (root) => {
      writeFileSync(join(root, ".gitignore"), "build/\n*.log\n.env\nsecrets.yml\n");
      writeFileSync(join(root, ".env"), SECRET);
      chmodSync(join(root, ".env"), 0o600);
      mkdirSync(join(root, "config"));
      writeFileSync(join(root, "config", "secrets.yml"), "password: 1\n");
      mkdirSync(join(root, "build"));
    });
    const prompt = s.nodes.find((n) => n.text === "turn 1")!.id;
    const dry = await fx.run(["rewind", s.id, "--to", prompt, "--dry-run"]);
    expect(dry.stdout).toMatch(/\.env {2}\+1 -0/);
    expect(dry.stdout).not.toContain("build/o.txt");

    const run = await fx.run(["rewind", s.id, "--to", prompt, "--yes"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(fx.project, ".env"), "utf8")).toBe(SECRET);
    expect(statSync(join(fx.project, ".env")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(fx.project, "config", "secrets.yml"), "utf8")).toBe("password: 1\n");
    expect(existsSync(join(fx.project, "gen"))).toBe(false);
    // Inside an ignored folder: not awl's to track, so not its to remove either.
    expect(readFileSync(join(fx.project, "build", "o.txt"), "utf8")).toBe("out\n");
  }, 120_000);

  test("files whose names are not UTF-8 are kept by their bytes: one a command removed comes back, one it made goes", async () => {
    await makeRepository(fx.project);
    const name = (text: string) => Buffer.concat([Buffer.from(`${fx.project}/`), Buffer.from(text, "latin1")]);
    writeFileSync(name("caf\xe9.txt"), "the person's\n");
    fx.server.reply({ blocks: [bash("rm $'caf\\xe9.txt' && printf 'new\\n' > $'na\\xefve.txt'")] }, { blocks: [{ type: "text", text: "done" }] });
    expect((await fx.run(["-p", "turn 1"])).code).toBe(0);
    expect(existsSync(name("caf\xe9.txt"))).toBe(false);
    const log = readFileSync(sessionFiles(fx.sessions)[0]!, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const prompt = log.find((e) => e.message?.content?.[0]?.text === "turn 1").id;
    const run = await fx.run(["rewind", log[0].id, "--to", prompt, "--yes"]);
    expect(run.code).toBe(0);
    expect(readFileSync(name("caf\xe9.txt"), "utf8")).toBe("the person's\n");
    expect(existsSync(name("na\xefve.txt"))).toBe(false);
    // And undone, by the bytes the rewind recorded in turn.
    expect((await fx.run(["rewind", log[0].id, "--undo", "--yes"])).code).toBe(0);
    expect(existsSync(name("caf\xe9.txt"))).toBe(false);
    expect(readFileSync(name("na\xefve.txt"), "utf8")).toBe("new\n");
  }, 120_000);
});
