// Issue 6, item 5: provider faults end to end, on the compiled binary against
// the strict test server. Retry notices are progress lines on stderr; a fault
// that ends the turn is exactly one further line and exit 1. After every
// failure the next `--resume` prompt is accepted by the strict server.
// Times are printed, never asserted.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { MAX_ATTEMPTS } from "../../src/providers/retry";
import { e2eFixture, sessionFiles, type Run } from "../e2e/awl";

/** Each case runs the binary several times: generous on a loaded 2-core machine. */
const SLOW = 60_000;

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const entries = () => {
  const files = sessionFiles(fx.sessions);
  expect(files).toHaveLength(1);
  return readFileSync(files[0]!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
};
const retryLines = (run: Run) => run.stderr.split("\n").filter((l) => /next in \d+(\.\d+)? s$/.test(l));
/** The stderr lines that are not retry notices. */
const otherLines = (run: Run) => run.stderr.split("\n").filter((l) => l && !/next in \d+(\.\d+)? s$/.test(l));
const gaps = () => fx.server.requests.slice(1).map((r, i) => r.time - fx.server.requests[i]!.time);

async function timed(args: string[], env?: Record<string, string>) {
  const start = performance.now();
  const run = await fx.run(args, { env });
  return { run, ms: Math.round(performance.now() - start) };
}

/** The next prompt continues the session and the strict server accepts its whole history. */
async function expectNextPromptWorks(): Promise<void> {
  const before = fx.server.requests.length;
  fx.server.reply({ blocks: [{ type: "text", text: "recovered" }] });
  const run = await fx.run(["-p", "again", "--resume"]);
  expect(run).toMatchObject({ code: 0, stdout: "recovered\n" });
  expect(fx.server.requests.slice(before).map((r) => r.status)).toEqual([200]);
  expect(sessionFiles(fx.sessions)).toHaveLength(1);
}

function expectNoTrace(run: Run): void {
  expect(run.stderr).not.toMatch(/internal error|^\s+at |\n\s+at /);
}

describe("provider faults through the compiled binary", () => {
  test("429 with retry-after: 1 waits as asked, then succeeds", async () => {
    fx.server.reply({ fault: { status: 429, retryAfter: 1 } }, { blocks: [{ type: "text", text: "after the wait" }] });
    const { run, ms } = await timed(["-p", "hello"]);
    expect(run).toMatchObject({ code: 0, stdout: "after the wait\n" });
    expect(fx.server.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(retryLines(run)).toEqual([expect.stringMatching(/rate limit.*next in 1\.0 s$/i)]);
    expect(otherLines(run)).toEqual([]);
    console.log(`provider-faults: 429 retry-after 1 s: 2 requests, gap ${gaps()[0]} ms, run ${ms} ms`);
  }, SLOW);

  test("529 overloaded three times, then success", async () => {
    fx.server.reply({ fault: { status: 529 } }, { fault: { status: 529 } }, { fault: { status: 529 } }, { blocks: [{ type: "text", text: "finally" }] });
    const { run, ms } = await timed(["-p", "hello"]);
    expect(run).toMatchObject({ code: 0, stdout: "finally\n" });
    expect(fx.server.requests.map((r) => r.status)).toEqual([529, 529, 529, 200]);
    expect(retryLines(run)).toHaveLength(3);
    expect(otherLines(run)).toEqual([]);
    expect(entries().at(-1).message).toMatchObject({ role: "assistant", stopReason: "stop" });
    console.log(`provider-faults: 529 x3: 4 requests, gaps ${gaps().join("/")} ms (AWL_RETRY_BASE_MS=5), run ${ms} ms`);
  }, SLOW);

  test("500 forever: gives up after the retry budget with one line, exit 1, and the session continues", async () => {
    // Exactly the budget: a further try would meet the server's own "no scripted reply" 500 and be counted.
    fx.server.reply(...Array.from({ length: MAX_ATTEMPTS }, () => ({ fault: { status: 500 } })));
    const { run, ms } = await timed(["-p", "hello"]);
    expect(run.code).toBe(1);
    expect(fx.server.requests).toHaveLength(MAX_ATTEMPTS);
    expect(fx.server.requests.every((r) => r.status === 500)).toBe(true);
    expect(retryLines(run)).toHaveLength(MAX_ATTEMPTS - 1);
    expect(otherLines(run)).toEqual([expect.stringMatching(new RegExp(`^awl: .*500.*gave up after ${MAX_ATTEMPTS} tries\\)$`))]);
    expectNoTrace(run);
    expect(entries().at(-1).message).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: expect.stringContaining("500") });
    const spent = fx.server.requests.at(-1)!.time - fx.server.requests[0]!.time;
    await expectNextPromptWorks();
    console.log(`provider-faults: 500 forever: gave up after ${MAX_ATTEMPTS} requests, ${spent} ms between first and last (base 5 ms), run ${ms} ms\n  ${otherLines(run)[0]}`);
  }, SLOW);

  test.each(["anthropic", "openai"] as const)("%s: connection dropped mid-stream after content: partial saved, one line, next prompt works", async (provider) => {
    const full = "The first half of the answer arrives, and then the connection drops before the rest.";
    fx.server.reply({ blocks: [{ type: "text", text: full }], chunk: 4, delayMs: 2, fault: { midStream: "drop", afterEvents: 8 } });
    const { run, ms } = await timed(["-p", "hello", "--provider", provider]);
    expect(run.code).toBe(1);
    expect(fx.server.requests).toHaveLength(1); // content was shown: not retried
    expect(otherLines(run)).toEqual([expect.stringMatching(/^awl: The connection to .* failed: ECONNRESET: The socket connection was closed unexpectedly\.?$/)]);
    expectNoTrace(run);
    const saved = entries().at(-1);
    expect(saved.message).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: expect.any(String) });
    const partial: string = saved.message.content[0].text;
    expect(partial.length).toBeGreaterThan(0);
    expect(full.startsWith(partial) && partial.length < full.length).toBe(true);
    expect(run.stdout).toBe(`${partial}\n`); // what was shown is what was saved
    await expectNextPromptWorks();
    console.log(`provider-faults: ${provider} drop after content: ${partial.length}/${full.length} chars saved with stopReason error, run ${ms} ms; resumed\n  ${otherLines(run)[0]}`);
  }, SLOW);

  test("a stall longer than the idle timeout: before content it is retried, after content it ends the turn", async () => {
    const env = { AWL_STREAM_IDLE_TIMEOUT_MS: "300" };
    fx.server.reply({ fault: { midStream: "stall", afterEvents: 1 } }, { blocks: [{ type: "text", text: "second try" }] });
    const before = await timed(["-p", "hello"], env);
    expect(before.run).toMatchObject({ code: 0, stdout: "second try\n" });
    expect(retryLines(before.run)).toEqual([expect.stringMatching(/sent nothing for/)]);
    expect(fx.server.requests).toHaveLength(2);

    const full = "Some of this arrives before the server goes silent for good.";
    fx.server.reply({ blocks: [{ type: "text", text: full }], chunk: 4, fault: { midStream: "stall", afterEvents: 8 } });
    const after = await timed(["-p", "go on", "--resume"], env);
    expect(after.run.code).toBe(1);
    expect(fx.server.requests).toHaveLength(3);
    expect(otherLines(after.run)).toEqual(["awl: Anthropic sent nothing for 300 ms"]);
    expectNoTrace(after.run);
    const saved = entries().at(-1);
    expect(saved.message).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(full.startsWith(saved.message.content[0].text)).toBe(true);
    await expectNextPromptWorks();
    console.log(`provider-faults: stall (idle timeout 300 ms): before content retried (run ${before.ms} ms); after content ended the turn (run ${after.ms} ms), partial saved; resumed\n  ${otherLines(after.run)[0]}`);
  }, SLOW);
});
