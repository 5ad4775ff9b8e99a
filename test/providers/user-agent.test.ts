// Issue 12, item 10: every request names its client and version, so a
// provider's (or a proxy's, or a local server's) logs can tell awl apart. Run
// from source the version is "dev"; the compiled binary's (build.ts defines
// AWL_VERSION from package.json) is checked in test/e2e/rendering.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ProviderName } from "../../src/providers/provider";
import { serverFixture, user } from "./fixture";

let fx: Awaited<ReturnType<typeof serverFixture>>;
beforeAll(async () => (fx = await serverFixture()));
afterAll(() => fx.stop());

test.each(["anthropic", "openai"] as ProviderName[])("%s requests carry User-Agent: awl/<version>, retries included", async (name) => {
  const before = fx.server.requests.length;
  fx.server.reply({ fault: { status: 529 } }, { blocks: [{ type: "text", text: "hi" }] });
  await fx.ask(name, [user("hi")]);
  const sent = fx.server.requests.slice(before);
  expect(sent.length).toBe(2); // the retry too
  for (const request of sent) expect(request.headers["user-agent"]).toBe("awl/dev");
});
