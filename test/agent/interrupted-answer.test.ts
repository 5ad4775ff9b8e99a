// An answer the person cut off is recorded as data: `"interrupted": true`
// beside its stopReason (docs/session-format.md, "What awl writes when things
// go wrong"), and the transcript and the export read that field, not the
// sentence shown. Files written before the field existed still read as
// interrupted by their sentence; a provider's own error never does.
import { describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { Agent } from "../../src/agent/agent";
import { SessionManager, messageToDisk } from "../../src/session";
import { colorsFor } from "../../src/ui/render/colors";
import { exportText } from "../../src/ui/session/export";
import { renderTranscript } from "../../src/ui/session/transcript";
import { logLines, useAgentFixture } from "./helpers";

const fx = useAgentFixture();
const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
const plain = colorsFor({ isTTY: false });

async function transcriptOf(file: string): Promise<string[]> {
  const session = await SessionManager.open(file, { readOnly: true });
  try {
    return renderTranscript(session, plain, 80, {}, {}).split("\n");
  } finally {
    session.close();
  }
}

describe("an interrupted answer", () => {
  test("is written with interrupted: true beside stopReason error; a finished answer carries no such field", async () => {
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...M }), cwd: fx.project, model: M, env: fx.env });
    fx.server.reply({ blocks: [{ type: "text", text: "one two three four five six seven eight nine ten" }], chunk: 4, delayMs: 40 });
    const controller = new AbortController();
    await agent.runTurn("count", controller.signal, (e) => e.type === "delta" && controller.abort());
    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
    await agent.runTurn("go on", new AbortController().signal, () => {});
    agent.session.close();

    const answers = (await logLines(agent.session.sessionFile)).filter((l) => l.message?.role === "assistant").map((l) => l.message);
    expect(answers[0]).toMatchObject({ stopReason: "error", interrupted: true, errorMessage: "Interrupted by the user." });
    // Beside its stopReason in the line, as the key order has it.
    expect(Object.keys(answers[0]).indexOf("interrupted")).toBe(Object.keys(answers[0]).indexOf("stopReason") + 1);
    expect(answers[1].stopReason).toBe("stop");
    expect("interrupted" in answers[1]).toBe(false);

    const transcript = await transcriptOf(agent.session.sessionFile);
    expect(transcript.filter((l) => l === "Interrupted.")).toHaveLength(1);
    expect(transcript.join("\n")).not.toContain("Interrupted by the user.");
    const markdown = exportText(agent.session.sessionFile, "md", {});
    expect(markdown.match(/\*Interrupted\.\*/g)).toHaveLength(1);
  });

  test("the transcript and the export read the field, whatever the errorMessage says", async () => {
    const s = SessionManager.init({ cwd: fx.project, ...M });
    s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "count" }] }), M);
    // A provider's error that happens to read like awl's sentence, on an answer that was not interrupted, and the other way round.
    s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: "one two" }] }, { ...M, stopReason: "error", interrupted: true, errorMessage: "stream closed" }));
    s.close();
    const transcript = await transcriptOf(s.sessionFile);
    expect(transcript).toContain("Interrupted.");
    expect(transcript.join("\n")).not.toContain("stream closed");
    expect(exportText(s.sessionFile, "md", {})).toContain("*Interrupted.*");
  });

  test("a file written before the field still reads as interrupted by its sentence; a provider error does not", async () => {
    const s = SessionManager.init({ cwd: fx.project, ...M });
    s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "count" }] }), M);
    s.close();
    // Lines as the previous release wrote them: no `interrupted`.
    const old = (id: string, parentId: string, text: string, errorMessage: string) =>
      `${JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "assistant", content: [{ type: "text", text }], provider: M.provider, model: M.model, stopReason: "error", errorMessage } })}\n`;
    const first = (await logLines(s.sessionFile)).at(-1).id;
    appendFileSync(s.sessionFile, old("0ld00001", first, "one two", "Interrupted by the user."));
    appendFileSync(s.sessionFile, `${JSON.stringify({ type: "message", id: "0ld00002", parentId: "0ld00001", timestamp: "2026-01-01T00:00:01.000Z", provider: M.provider, model: M.model, message: { role: "user", content: [{ type: "text", text: "again" }] } })}\n`);
    appendFileSync(s.sessionFile, old("0ld00003", "0ld00002", "three", "overloaded_error: Overloaded"));

    const transcript = await transcriptOf(s.sessionFile);
    expect(transcript.filter((l) => l === "Interrupted.")).toHaveLength(1);
    expect(transcript.join("\n")).toContain("overloaded_error: Overloaded");
    expect(exportText(s.sessionFile, "md", {}).match(/\*Interrupted\.\*/g)).toHaveLength(1);
  });
});
