// Issue 11, item 6, through the binary: the model runs `env` and reads a file
// holding the keys; neither key reaches the session file, the provider, or the
// terminal. Secret-named variables stay out of bash unless AWL_BASH_PASS_ENV names them.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { e2eFixture, sessionFiles } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

/** The tool results of the last session file's entries, in order. */
async function toolResults(): Promise<string[]> {
  const lines = (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l));
  return lines.flatMap((e) => (e.message?.content ?? []).filter((b: any) => b.type === "toolResult").map((b: any) => b.content as string));
}

describe("provider keys and tools", () => {
  test("bash does not get the keys, output holding them is scrubbed, and nothing saved, sent or shown holds them", async () => {
    const keys = [fx.server.anthropicKey, fx.server.openaiKey];
    await Bun.write(join(fx.project, ".env"), `ANTHROPIC_API_KEY=${keys[0]}\nOPENAI_API_KEY=${keys[1]}\n`);
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "bash", input: { command: 'env; echo "gh=${GITHUB_TOKEN-unset}"' } }] },
      { blocks: [{ type: "toolUse", name: "read", input: { path: ".env" } }] },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const run = await fx.run(["-p", "show me your environment"], { env: { GITHUB_TOKEN: "ghp_not_for_the_model" } });
    expect(run.code).toBe(0);

    const [env, read] = await toolResults();
    expect(env).toContain("AWL_SESSION_DIR="); // the rest of the environment is there
    expect(env).not.toMatch(/ANTHROPIC_API_KEY|OPENAI_API_KEY|GITHUB_TOKEN=/);
    expect(env).toContain("gh=unset");
    expect(read).toBe("     1\tANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n     2\tOPENAI_API_KEY=[redacted OPENAI_API_KEY]");

    const file = await Bun.file(sessionFiles(fx.sessions)[0]!).text();
    const sent = fx.server.requests.map((r) => r.rawBody).join("\n");
    for (const key of keys) {
      expect(file).not.toContain(key);
      expect(sent).not.toContain(key);
      expect(run.stderr + run.stdout).not.toContain(key);
    }
  });

  test("AWL_BASH_PASS_ENV passes a secret-named variable through on purpose", async () => {
    fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: 'echo "gh=${GITHUB_TOKEN-unset}"' } }] }, { blocks: [{ type: "text", text: "done" }] });
    const run = await fx.run(["-p", "check the token"], { env: { GITHUB_TOKEN: "ghp_meant_for_gh", AWL_BASH_PASS_ENV: "GITHUB_TOKEN" } });
    expect(run.code).toBe(0);
    expect(await toolResults()).toEqual(["gh=ghp_meant_for_gh\nexit code: 0"]);
  });
});
