import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textMessage } from "../../src/conversation";
import { UserError } from "../../src/errors";
import { encodeCwd, messageToDisk, SessionManager } from "../../src/session";
import { SPEC, specFile, useSessionRoot } from "./helpers";

useSessionRoot();
const TORN = '{"type":"message","id":"torn1234","parentId":"c3d4e5f6","timestamp":"2026-04-25T14:00:04.000Z","message":{"role":"assis';

function writeSession(text: string | Buffer): string {
  const dir = join(process.env.AWL_SESSION_DIR!, encodeCwd("/p"));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl");
  writeFileSync(path, text);
  return path;
}

const openError = (path: string) => SessionManager.open(path).then(() => undefined, (e: unknown) => e as UserError);

describe("crash recovery", () => {
  test("a torn last line is cut off, earlier bytes untouched, and the caller learns what was removed", async () => {
    const path = writeSession(specFile() + TORN);
    const s = await SessionManager.open(path);
    expect(readFileSync(path, "utf8")).toBe(specFile());
    expect(s.recovery).toEqual({ trimmedBytes: Buffer.byteLength(TORN), preview: expect.stringContaining('{"type":"message","id":"torn1234"') });
    expect(s.recovery!.preview.length).toBeLessThanOrEqual(80);
    expect(s.getLeafId()).toBe("c3d4e5f6");
    expect(s.rebuildConversation().messages).toHaveLength(4);
    s.close();
  });

  test("the next append after a recovery lands on a clean line", async () => {
    const path = writeSession(specFile() + TORN);
    const s = await SessionManager.open(path);
    s.appendMessage(messageToDisk(textMessage("user", "still there?")), { provider: "openai", model: "gpt-4o" });
    s.close();
    const reopened = await SessionManager.open(path);
    expect(reopened.recovery).toBeUndefined();
    expect(reopened.messageCount()).toBe(5);
    reopened.close();
  });

  test("a tail of NUL bytes left by a power cut is removed like a torn line", async () => {
    const nuls = Buffer.alloc(300);
    const path = writeSession(Buffer.concat([Buffer.from(specFile()), nuls]));
    const s = await SessionManager.open(path);
    expect(readFileSync(path, "utf8")).toBe(specFile());
    expect(s.recovery?.trimmedBytes).toBe(300);
    expect(s.recovery?.preview).toContain("300 NUL bytes");
    s.close();
  });

  test("a half-written line followed by NUL bytes is removed whole", async () => {
    const path = writeSession(Buffer.concat([Buffer.from(specFile() + TORN.slice(0, 40)), Buffer.alloc(64)]));
    const s = await SessionManager.open(path);
    expect(readFileSync(path, "utf8")).toBe(specFile());
    expect(s.recovery?.trimmedBytes).toBe(40 + 64);
    s.close();
  });

  test("a complete last entry without its newline is kept, and the newline comes before the next entry", async () => {
    const text = specFile().trimEnd();
    const path = writeSession(text);
    const s = await SessionManager.open(path);
    expect(s.recovery).toBeUndefined();
    expect(s.getLeafId()).toBe("c3d4e5f6");
    expect(readFileSync(path, "utf8")).toBe(text);
    const id = s.appendMessage(messageToDisk(textMessage("assistant", "next")));
    expect(readFileSync(path, "utf8").startsWith(`${text}\n{"type":"message","id":"${id}"`)).toBe(true);
    s.close();
    const reopened = await SessionManager.open(path);
    expect(reopened.getBranch().map((e) => e.id).at(-1)).toBe(id);
    reopened.close();
  });

  test("a complete last entry followed by NUL bytes keeps the entry and drops the NULs", async () => {
    const text = specFile().trimEnd();
    const path = writeSession(Buffer.concat([Buffer.from(text), Buffer.alloc(16)]));
    const s = await SessionManager.open(path);
    expect(s.getLeafId()).toBe("c3d4e5f6");
    expect(s.recovery?.trimmedBytes).toBe(16);
    expect(readFileSync(path, "utf8")).toBe(text);
    s.close();
  });

  test("a damaged line in the middle fails the open with file:line and the reason, file unchanged", async () => {
    const broken = [SPEC.header, SPEC.system, "{this is not json", SPEC.assistant].join("\n") + "\n";
    const path = writeSession(broken);
    const error = await openError(path);
    expect(error).toBeInstanceOf(UserError);
    expect(error!.message).toBe(`${path}:3: not complete JSON`);
    expect(readFileSync(path, "utf8")).toBe(broken);
  });

  test("a last line that is complete JSON but not a valid entry is reported, not removed", async () => {
    const invalid = SPEC.assistant.replace('"role":"assistant"', '"role":"wizard"').replace('"id":"b2c3d4e5"', '"id":"zzzz0000"');
    const text = specFile() + invalid + "\n";
    const path = writeSession(text);
    const error = await openError(path);
    expect(error).toBeInstanceOf(UserError);
    expect(error!.message).toStartWith(`${path}:6: `);
    expect(error!.message).toContain("role");
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  test("a torn header is damage (there is no session to recover), file unchanged", async () => {
    const path = writeSession(SPEC.header.slice(0, 50));
    const error = await openError(path);
    expect(error!.message).toStartWith(`${path}:1: `);
    expect(readFileSync(path, "utf8")).toBe(SPEC.header.slice(0, 50));
  });

  test("read-only opens leave a torn tail on disk and ignore it in memory", async () => {
    const path = writeSession(specFile() + TORN);
    const s = await SessionManager.open(path, { readOnly: true });
    expect(s.readOnly).toBe(true);
    expect(s.messageCount()).toBe(4);
    expect(readFileSync(path, "utf8")).toBe(specFile() + TORN);
    s.close();
  });

  test("a session killed mid-write and resumed keeps every complete entry", async () => {
    const s = SessionManager.init({ cwd: "/p", provider: "anthropic", model: "m" });
    const ids = [0, 1, 2].map((i) => s.appendMessage(messageToDisk(textMessage("user", `prompt ${i}`)), { provider: "anthropic", model: "m" }));
    s.close();
    appendFileSync(s.sessionFile, '{"type":"message","id":"torn1234","parentId":');
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.getBranch().map((e) => e.id)).toEqual(ids);
    expect(resumed.recovery?.trimmedBytes).toBe(45);
    resumed.close();
  });
});
