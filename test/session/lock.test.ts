import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { textMessage } from "../../src/conversation";
import { UserError } from "../../src/errors";
import { messageToDisk, SessionManager } from "../../src/session";
import { spawnBun, useSessionRoot } from "./helpers";

useSessionRoot();

/** A session file with two messages, closed again. */
function makeSession(): string {
  const s = SessionManager.init({ cwd: "/p", provider: "anthropic", model: "m" });
  s.appendMessage(messageToDisk(textMessage("system", "sys")));
  s.appendMessage(messageToDisk(textMessage("user", "hi")), { provider: "anthropic", model: "m" });
  s.close();
  return s.sessionFile;
}

/** Another process that opens the session for writing, says so, and waits. */
async function holder(path: string) {
  const child = spawnBun(`await S.SessionManager.open(${JSON.stringify(path)}); console.log("holding"); setInterval(() => {}, 1000);`);
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const said = new TextDecoder().decode(value);
  if (!said.includes("holding")) throw new Error(`holder did not start: ${said} ${await new Response(child.stderr).text()}`);
  return child;
}

describe("one writer per session", () => {
  test("a second SessionManager on the same file is refused with a message naming the holder's pid", async () => {
    const path = makeSession();
    const child = await holder(path);
    try {
      const error = await SessionManager.open(path).catch((e) => e);
      expect(error).toBeInstanceOf(UserError);
      expect(error.message).toContain(`pid ${child.pid}`);
      expect(error.message).toContain(path);
      expect(error.message).not.toContain("\n");
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  });

  test("a lock left by a SIGKILLed process is taken over", async () => {
    const path = makeSession();
    const child = await holder(path);
    child.kill("SIGKILL");
    await child.exited;
    const s = await SessionManager.open(path);
    s.appendMessage(messageToDisk(textMessage("assistant", "after the crash")));
    expect(s.messageCount()).toBe(3);
    s.close();
  });

  test("within one process too, the second opener is refused until the first closes", async () => {
    const path = makeSession();
    const first = await SessionManager.open(path);
    await expect(SessionManager.open(path)).rejects.toThrow(/in use/);
    first.close();
    const second = await SessionManager.open(path);
    second.close();
  });

  test("a refused opener leaves the holder's lock and file alone", async () => {
    const path = makeSession();
    const first = await SessionManager.open(path);
    await SessionManager.open(path).catch(() => undefined);
    expect(existsSync(`${path}.lock`)).toBe(true);
    first.appendMessage(messageToDisk(textMessage("assistant", "still mine")));
    first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test("read-only opens need no lock, even while a writer holds it", async () => {
    const path = makeSession();
    const writer = await SessionManager.open(path);
    const reader = await SessionManager.open(path, { readOnly: true });
    expect(reader.messageCount()).toBe(2);
    reader.close();
    writer.close();
  });
});
