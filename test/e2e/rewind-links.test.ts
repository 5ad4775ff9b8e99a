// Symbolic links through a rewind: an edit made through a link
// (CLAUDE.md -> AGENTS.md) is recorded as a change of the file the link names
// and put back there, the link left a link; a link a command removed or
// replaced with a file comes back as a link, its target text unchanged.
// Runs the compiled binary against the test server, in a real repository.
import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useE2eFixture } from "./awl";
import { recordTurns } from "./turns";
import { bash, edit } from "../support/checkpoint-repo";

const fx = useE2eFixture();

const linkText = (name: string) => (lstatSync(join(fx.project, name)).isSymbolicLink() ? readlinkSync(join(fx.project, name)) : undefined);

describe("links in a rewind", () => {
  test("an edit through a link and a command's removed or replaced links are put back as they were", async () => {
    const s = await recordTurns(
      fx,
      [[edit("CLAUDE.md", "rules", "RULES")], [bash("rm latest && ln -s b.txt current && rm CLAUDE.md && printf 'plain\\n' > CLAUDE.md")]],
      (root) => {
        writeFileSync(join(root, "AGENTS.md"), "rules\n");
        symlinkSync("AGENTS.md", join(root, "CLAUDE.md"));
        symlinkSync("a.txt", join(root, "latest"));
      },
    );
    expect(linkText("CLAUDE.md")).toBeUndefined();
    const prompt = (n: number) => s.nodes.find((node) => node.text === `turn ${n}`)!.id;

    const second = await fx.run(["rewind", s.id, "--to", prompt(2), "--yes"]);
    expect(second.code).toBe(0);
    expect(linkText("CLAUDE.md")).toBe("AGENTS.md");
    expect(readFileSync(join(fx.project, "AGENTS.md"), "utf8")).toBe("RULES\n");
    expect(linkText("latest")).toBe("a.txt");
    expect(existsSync(join(fx.project, "current"))).toBe(false);

    const first = await fx.run(["rewind", s.id, "--to", prompt(1), "--yes"]);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain("--force");
    expect(readFileSync(join(fx.project, "AGENTS.md"), "utf8")).toBe("rules\n");
    expect(linkText("CLAUDE.md")).toBe("AGENTS.md");
  }, 120_000);
});
