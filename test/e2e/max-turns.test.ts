// `awl -p --max-turns N`: N model requests of the conversation (summaries and
// retries not counted), the Nth answer's tools run and recorded, then the run
// stops with exit 4 and status max_turns; a bare `-p --resume` continues it.
import { expect, test } from "bun:test";
import type { RecordedRequest, Reply } from "../support/server";
import { useE2eFixture } from "./awl";
import { fileText, runJson } from "./json-stream";

const fx = useE2eFixture();

/** A model that always asks for one more command, until told it may stop (after 3 tool results). */
function loopingModel(r: RecordedRequest): Reply {
  const results = r.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : [])).filter((b: { type: string }) => b.type === "tool_result").length;
  return results < 3 ? { blocks: [{ type: "toolUse", name: "bash", input: { command: `echo step${results}` } }] } : { blocks: [{ type: "text", text: "all done" }] };
}

test("--max-turns 2 on a tool loop: 2 requests, the second answer's tool ran and is saved, exit 4; --resume continues", async () => {
  fx.server.respond = loopingModel;
  // A 529 first: a retry is not a turn.
  fx.server.reply({ fault: { status: 529 } });
  const { run, result } = await runJson(fx, ["-p", "loop", "--max-turns", "2"]);
  expect(run.code).toBe(4);
  expect(result).toMatchObject({ status: "max_turns", exitCode: 4 });
  expect(run.stderr).toContain(`awl -p --resume ${result.sessionId} continues`);
  expect(fx.server.requests.filter((r) => r.status === 200)).toHaveLength(2);
  const last = JSON.parse(fileText(fx).trim().split("\n").at(-1)!);
  expect(last.message.role).toBe("user");
  expect(last.message.content[0]).toMatchObject({ type: "toolResult", content: expect.stringContaining("step1") });

  const next = await runJson(fx, ["-p", "--resume", result.sessionId]);
  expect(next.run.code).toBe(0);
  expect(next.result.status).toBe("ok");
  expect(fx.server.requests.filter((r) => r.status === 200)).toHaveLength(4);
  expect(next.lines.slice(1, -1).map((l) => JSON.parse(l).message.role)).toEqual(["assistant", "user", "assistant"]);

  // Nothing waits for the model now: a bare -p --resume is a usage error.
  const done = await fx.run(["-p", "--resume", result.sessionId]);
  expect(done.code).toBe(2);
  expect(done.stderr).toContain("-p needs a prompt");
}, 30_000);
