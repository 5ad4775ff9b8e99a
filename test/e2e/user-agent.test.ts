// Issue 12, item 10: the compiled binary's requests name it and its version
// (build.ts defines AWL_VERSION from package.json), for both providers.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { version } from "../../package.json";
import { e2eFixture } from "./awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => (fx = await e2eFixture()));
afterEach(() => fx.cleanup());

test("User-Agent: awl/<version> on every request, Anthropic and OpenAI", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "one" }] }, { blocks: [{ type: "text", text: "two" }] });
  expect((await fx.run(["-p", "hi"])).code).toBe(0);
  expect((await fx.run(["-p", "hi", "--provider", "openai", "--model", "gpt-4o"])).code).toBe(0);
  expect(fx.server.requests.map((r) => [r.path, r.headers["user-agent"]])).toEqual([
    ["/v1/messages", `awl/${version}`],
    ["/v1/chat/completions", `awl/${version}`],
  ]);
});
