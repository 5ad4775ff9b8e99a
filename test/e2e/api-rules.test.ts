// The APIs' own rules through the binary (issue 11, items 15-17): what a
// person sees and what the session keeps.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { e2eFixture, sessionFiles } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const entries = async () => (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l));

test("-p --thinking keeps thinking on through a whole tool loop, with the interleaved-thinking beta for a Claude 4 model", async () => {
  fx.server.reply(
    { blocks: [{ type: "thinking", thinking: "check first" }, { type: "toolUse", name: "bash", input: { command: "true" } }] },
    { blocks: [{ type: "thinking", thinking: "then again" }, { type: "toolUse", name: "bash", input: { command: "true" } }] },
    { blocks: [{ type: "text", text: "all checked" }] },
  );
  const run = await fx.run(["-p", "check twice", "--thinking", "--model", "claude-haiku-4-5"]);
  expect([run.code, run.stdout]).toEqual([0, "all checked\n"]);
  expect(fx.server.requests.map((r) => [r.status, r.body.thinking?.type, r.headers["anthropic-beta"]])).toEqual([
    [200, "enabled", "interleaved-thinking-2025-05-14"],
    [200, "enabled", "interleaved-thinking-2025-05-14"],
    [200, "enabled", "interleaved-thinking-2025-05-14"],
  ]);
});

test("an OpenAI refusal is shown, kept as the answer's text with an errorMessage saying so, and -p exits 1", async () => {
  fx.server.reply({ blocks: [{ type: "refusal", refusal: "I can't help with that." }] });
  const run = await fx.run(["-p", "do something bad", "--provider", "openai"]);
  expect(run.stdout).toBe("I can't help with that.\n");
  expect(run.stderr.trim()).toBe("awl: The model declined to answer (refusal)");
  expect(run.code).toBe(1);
  expect((await entries()).at(-1).message).toMatchObject({
    role: "assistant",
    content: [{ type: "text", text: "I can't help with that." }],
    stopReason: "error",
    errorMessage: "The model declined to answer (refusal)",
  });
});

test("a tool call cut off by the output limit does not poison the session: every later --resume on OpenAI is accepted", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "Writing it." }, { type: "toolUse", name: "write", input: '{"path":"a.ts","content":"export co' }], stop: "length" });
  const cut = await fx.run(["-p", "write a.ts", "--provider", "openai"]);
  expect(cut.code).toBe(0); // cut off at the output limit: the turn ended, said on stderr
  const raw = (await entries()).at(-1).message.content[1];
  expect(raw).toMatchObject({ type: "toolUse", input: '{"path":"a.ts","content":"export co' }); // the log keeps the raw text
  for (const prompt of ["try again", "and once more"]) {
    fx.server.reply({ blocks: [{ type: "text", text: "fine" }] });
    const next = await fx.run(["-p", prompt, "--resume"]);
    expect([next.code, next.stdout, next.stderr]).toEqual([0, "fine\n", ""]);
    expect(fx.server.requests.at(-1)!.status).toBe(200);
  }
});
