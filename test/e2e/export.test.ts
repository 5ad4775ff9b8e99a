// awl export: Markdown and HTML with keys and the home directory redacted (and
// saying so), the HTML self-contained, the JSONL the log as written (and
// saying that on stderr); -o never overwrites.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
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

  test("a private key block of any kind goes whole, and keys behind a percent-encoded separator are redacted", async () => {
    const pgp = "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGX0pgpSECRETbody0123\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----";
    const ssh = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaSECRETbody\n-----END OPENSSH PRIVATE KEY-----";
    const encoded = "-----BEGIN%20ENCRYPTED%20PRIVATE%20KEY-----%0AMIIencSECRETbody%0A-----END%20ENCRYPTED%20PRIVATE%20KEY-----";
    const urls = "curl 'https://example.com/?token%3Dsk-ant-api03-URLencodedSECRET01&x=1' -H 'Authorization: Bearer%20sk-proj-URLencodedSECRET0123456'";
    fx.server.reply({ blocks: [{ type: "text", text: `Found:\n\n${pgp}\n\n${ssh}\n\n${encoded}\n\n${urls}\n\nRotate them.` }] });
    expect((await fx.run(["-p", "what is in the repo?"])).code).toBe(0);
    const id = JSON.parse((await fx.run(["sessions", "--json"])).stdout)[0].id.slice(0, 8);
    for (const format of ["--md", "--html"]) {
      const run = await fx.run(["export", id, format]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Rotate them.");
      expect(run.stdout).not.toContain("SECRET");
      expect(run.stdout).not.toContain("PRIVATE KEY BLOCK");
      expect(run.stdout.match(/\[redacted private key\]/g)).toHaveLength(3);
      expect(run.stdout).toContain("token%3D[redacted sk-ant- key]");
      expect(run.stdout).toContain("Bearer%20[redacted sk- key]");
    }
  });

  test.skipIf(!hasTmux)("to a terminal, the session's escape sequences are shown, not run; into a pipe they are kept", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "Done.\x1b]0;export-title\x07 Screen kept.\x1b[2J" }] });
    expect((await fx.run(["-p", "go"])).code).toBe(0);
    const id = JSON.parse((await fx.run(["sessions", "--json"])).stdout)[0].id.slice(0, 8);
    term.start([AWL, "export", id], { cwd: fx.project, env: fx.env });
    const screen = await term.waitFor(/\[exited 0\]/);
    expect(screen).toContain("Done.␛]0;export-title␇ Screen kept.␛[2J");
    const title = Bun.spawnSync(["tmux", "-L", term.socket, "display", "-p", "#{pane_title}"]).stdout.toString();
    expect(title).not.toContain("export-title");
    expect((await fx.run(["export", id])).stdout).toContain("Done.\x1b]0;export-title\x07 Screen kept.");
  });
});
