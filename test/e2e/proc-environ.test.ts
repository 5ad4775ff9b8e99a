// The key never reaches a tool through /proc: bash, under --approve read-only,
// reads awl's /proc/<pid>/environ (its parent's) and every other process's it
// can, ancestors included, and finds neither key, whole or in pieces. The
// keys are real-length, so the scrub would also catch them in pieces; the test
// looks for what the scrub would leave as a trace of having caught one.
import { describe, expect, test } from "bun:test";
import { sessionFiles, useE2eFixture } from "./awl";

const random = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[b % 62]).join("");
const anthropicKey = `sk-ant-api03-${random(80)}`;
const openaiKey = `sk-proj-${random(120)}`;
const fx = useE2eFixture({ anthropicKey, openaiKey });

async function toolResults(): Promise<string[]> {
  const lines = (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l));
  return lines.flatMap((e) => (e.message?.content ?? []).filter((b: any) => b.type === "toolResult").map((b: any) => b.content as string));
}

describe.skipIf(process.platform !== "linux")("awl's environment as /proc shows it", () => {
  test("bash reads /proc/$PPID/environ and every /proc/*/environ: no key, whole or in pieces", async () => {
    const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });
    // Seven characters from the middle of each key: too short to be scrubbed, enough to find it.
    const fragments = [anthropicKey.slice(30, 37), openaiKey.slice(60, 67)];
    fx.server.reply(
      {
        blocks: [
          bash("grep -a -o -E '.{8}' /proc/$PPID/environ"),
          bash("grep -a -o 'ANTHROPIC_API_KEY=.\\{4\\}' /proc/$PPID/environ"),
          bash(`grep -a -l -F -e ${fragments[0]} -e ${fragments[1]} /proc/*/environ 2>/dev/null; wc -c /dev/null`),
        ],
      },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const run = await fx.run(["--approve", "read-only", "-p", "read your environment"], { env: { AWL_APPROVE: undefined, AWL_SANDBOX: "off" } });
    expect(run.code).toBe(0);
    const [pieces, start, everywhere] = await toolResults();
    // It really read awl's environment, where the keys are stars. The chunks' alignment
    // depends on what comes before (PATH, the temporary home), so they are joined first.
    const read = pieces!.replaceAll("\n", "");
    expect(read).toMatch(/ANTHROPIC_API_KEY=\*{40,}\0/);
    expect(read).toMatch(/OPENAI_API_KEY=\*{40,}\0/);
    expect(pieces).not.toContain("[redacted"); // nothing there for the scrub to catch
    expect(start).toBe("ANTHROPIC_API_KEY=****\nexit code: 0");
    expect(everywhere).toBe("0 /dev/null\nexit code: 0"); // no process's environment holds either key
  });
});
