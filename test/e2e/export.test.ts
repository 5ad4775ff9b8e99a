// awl export: Markdown and HTML with keys and the home directory redacted (and
// saying so), the HTML self-contained, the JSONL the log as written (and
// saying that on stderr); -o never overwrites.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useE2eFixture } from "./awl";

const fx = useE2eFixture();
const PLANTED = "sk-ant-api03-PLANTEDplantedPLANTED0123456789";

async function sessionWithSecrets(): Promise<string> {
  fx.server.reply(
    { blocks: [{ type: "thinking", thinking: "I should print the file." }, { type: "toolUse", name: "bash", input: { command: `echo ${PLANTED}` } }] },
    { blocks: [{ type: "text", text: "The file holds a key; rotate it." }] },
  );
  // The person pasted the provider key itself into the prompt.
  const run = await fx.run(["-p", `check config.env (my key is ${fx.env.ANTHROPIC_API_KEY}) in ${fx.root}/project`, "--thinking"]);
  expect(run.code).toBe(0);
  return JSON.parse((await fx.run(["sessions", "--json"])).stdout)[0].id.slice(0, 8);
}

describe("awl export", () => {
  test("Markdown (the default) holds the conversation, and neither a planted sk-ant- key nor the provider key, nor the home directory", async () => {
    const id = await sessionWithSecrets();
    const run = await fx.run(["export", id], { env: { HOME: fx.root } });
    expect(run.code).toBe(0);
    const md = run.stdout;
    expect(md).toStartWith("# check config.env");
    expect(md).toContain("Redacted for sharing");
    expect(md).toContain("<details><summary>Thinking</summary>");
    expect(md).toContain("**bash**");
    expect(md).toContain("The file holds a key; rotate it.");
    expect(md).toContain("[redacted sk-ant- key]");
    expect(md).toContain("[redacted ANTHROPIC_API_KEY]");
    expect(md).not.toContain(PLANTED);
    expect(md).not.toContain(fx.env.ANTHROPIC_API_KEY!);
    expect(md).not.toContain(fx.root);
    expect(md).toContain("~/project");
  });

  test("HTML is one self-contained file: no script, nothing fetched, the conversation shown, redacted", async () => {
    const id = await sessionWithSecrets();
    const out = join(fx.root, "session.html");
    const run = await fx.run(["export", id, "--html", "-o", out]);
    expect(run.code).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toStartWith("<!doctype html>");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=|@import|url\(/i);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain("The file holds a key; rotate it.");
    expect(html).toContain("Redacted for sharing");
    expect(html).not.toContain(PLANTED);
    expect(html).not.toContain(fx.env.ANTHROPIC_API_KEY!);

    const again = await fx.run(["export", id, "--html", "-o", out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("never overwrites");
  });

  test("--jsonl is the active path's lines as written, header first, and says on stderr that it is not redacted", async () => {
    const id = await sessionWithSecrets();
    const run = await fx.run(["export", id, "--jsonl"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("NOT redacted");
    const file = JSON.parse((await fx.run(["sessions", "--json"])).stdout)[0].path;
    // every line of this one-branch log but the first prompt's title, which is bookkeeping, not on the path
    const written = readFileSync(file, "utf8").split("\n");
    expect(written.filter((l) => l.startsWith('{"type":"session_info"'))).toHaveLength(1);
    expect(run.stdout).toBe(written.filter((l) => !l.startsWith('{"type":"session_info"')).join("\n"));
    expect(run.stdout).toContain(PLANTED); // so the redaction above had something to do
  });

  test("an unknown id, a missing one, and an existing -o file are usage errors", async () => {
    expect((await fx.run(["export"])).code).toBe(2);
    expect((await fx.run(["export", "0123abcd"])).code).toBe(2);
    const id = await sessionWithSecrets();
    const taken = join(fx.root, "taken.md");
    writeFileSync(taken, "mine");
    expect((await fx.run(["export", id, "-o", taken])).code).toBe(2);
    expect(readFileSync(taken, "utf8")).toBe("mine");
    expect(existsSync(join(fx.project, "taken.md"))).toBe(false);
  });
});
