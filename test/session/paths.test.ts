import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textMessage } from "../../src/conversation";
import { UsageError } from "../../src/errors";
import { encodeCwd, listSessions, messageToDisk, SessionManager, sessionFileName, sessionRoot } from "../../src/session";
import { continueRecent } from "../../src/session/store";
import { spawnBun, useSessionRoot } from "./helpers";

const root = useSessionRoot();

describe("where sessions live", () => {
  test("AWL_SESSION_DIR replaces the root; else XDG_DATA_HOME/awl/sessions; else ~/.local/share/awl/sessions", () => {
    expect(sessionRoot({ AWL_SESSION_DIR: "/s", XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/s");
    expect(sessionRoot({ XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/x/awl/sessions");
    expect(sessionRoot({ HOME: "/h" })).toBe("/h/.local/share/awl/sessions");
    expect(sessionRoot({ XDG_DATA_HOME: "", HOME: "/h" })).toBe("/h/.local/share/awl/sessions");
  });

  test("the working directory is encoded exactly as the spec's example", () => {
    expect(encodeCwd("/Users/travis/Code/awl")).toBe("--Users-travis-Code-awl--");
    expect(encodeCwd("/Users/travis/Code/awl/")).toBe("--Users-travis-Code-awl--");
    expect(encodeCwd("/a-b")).toBe(encodeCwd("/a/b"));
  });

  test("a name over 255 bytes keeps its first 200 bytes, then '-' and 12 hex digits of the SHA-256 of the whole cwd", () => {
    const deep = `/${"a".repeat(100)}/${"b".repeat(100)}/${"c".repeat(100)}`;
    const name = encodeCwd(deep);
    const hash = createHash("sha256").update(deep).digest("hex").slice(0, 12);
    expect(name).toBe(`${`--${"a".repeat(100)}-${"b".repeat(100)}-${"c".repeat(100)}--`.slice(0, 200)}-${hash}`);
    expect(Buffer.byteLength(name)).toBe(213);
    expect(name.endsWith("b-6e92d65a6337")).toBe(true); // the example in docs/session-format.md
    // Two deep directories that share their first 200 bytes still get their own folders.
    expect(encodeCwd(`${deep}x`)).not.toBe(name);
    expect(encodeCwd(`${deep}x`).slice(0, 200)).toBe(name.slice(0, 200));
    // Exactly 255 bytes is kept whole.
    const fits = `/${"d".repeat(251)}`;
    expect(encodeCwd(fits)).toBe(`--${"d".repeat(251)}--`);
    expect(encodeCwd(`${fits}d`)).toHaveLength(213);
  });

  test("a long name is cut between characters, never inside one", () => {
    const name = encodeCwd(`/${"é".repeat(200)}`); // 2 bytes each: the cut falls after 99 of them (2 + 198 bytes)
    expect(name.startsWith(`--${"é".repeat(99)}-`)).toBe(true);
    expect(Buffer.byteLength(name)).toBe(200 + 13);
    expect(name).not.toContain("\uFFFD");
  });

  test("a session in a deep directory is created, listed and resumed", async () => {
    const deep = `/${"a".repeat(100)}/${"b".repeat(100)}/${"c".repeat(100)}`;
    const s = SessionManager.init({ cwd: deep, provider: "p", model: "m" });
    s.appendMessage(messageToDisk(textMessage("system", "sys")));
    s.close();
    expect((await listSessions(deep)).map((l) => l.id)).toEqual([s.sessionId]);
    const again = await continueRecent(deep);
    expect(again?.sessionId).toBe(s.sessionId);
    again?.close();
  });

  test("a relative AWL_SESSION_DIR is refused, with a word about ~; a relative XDG_DATA_HOME is ignored, as the XDG spec says", () => {
    expect(() => sessionRoot({ AWL_SESSION_DIR: "sessions", HOME: "/h" })).toThrow(UsageError);
    expect(() => sessionRoot({ AWL_SESSION_DIR: "./s" })).toThrow("AWL_SESSION_DIR must be an absolute path, not './s'");
    expect(() => sessionRoot({ AWL_SESSION_DIR: "~/sessions" })).toThrow("(awl does not expand ~: write $HOME/sessions)");
    expect(sessionRoot({ XDG_DATA_HOME: "data", HOME: "/h" })).toBe("/h/.local/share/awl/sessions");
  });

  test("a session root that is a file (or lies under one) is a usage error, not an empty list", async () => {
    const file = join(root(), "a-file");
    writeFileSync(file, "");
    expect(() => sessionRoot({ AWL_SESSION_DIR: file })).toThrow(`the session folder ${file} (from AWL_SESSION_DIR) is not a directory`);
    expect(() => sessionRoot({ AWL_SESSION_DIR: join(file, "below") })).toThrow(UsageError);
    await expect(listSessions("/p", { AWL_SESSION_DIR: file })).rejects.toThrow(UsageError);
    mkdirSync(join(root(), "xdg", "awl"), { recursive: true });
    writeFileSync(join(root(), "xdg", "awl", "sessions"), "");
    expect(() => sessionRoot({ XDG_DATA_HOME: join(root(), "xdg") })).toThrow("(from XDG_DATA_HOME) is not a directory");
    // Not there yet is fine: it is created with the first message.
    expect(sessionRoot({ AWL_SESSION_DIR: join(root(), "later") })).toBe(join(root(), "later"));
  });

  test("file names follow the spec's example", () => {
    expect(sessionFileName("2026-04-25T17:40:15.990Z", "019dc5ba-53f6-71a5-ab8f-b1f8709c2572")).toBe(
      "2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl",
    );
  });

  test("a session is created under XDG_DATA_HOME when AWL_SESSION_DIR is unset", async () => {
    const env = { ...process.env, AWL_SESSION_DIR: undefined, XDG_DATA_HOME: join(root(), "data") };
    const child = spawnBun(
      `const s = S.SessionManager.init({ cwd: "/w", provider: "p", model: "m" }); s.appendMessage(S.messageToDisk({ role: "system", content: [] })); s.close(); console.log(s.sessionFile);`,
      env,
    );
    expect(await child.exited).toBe(0);
    const file = (await new Response(child.stdout).text()).trim();
    expect(file.startsWith(join(root(), "data", "awl", "sessions", "--w--") + "/")).toBe(true);
    expect(statSync(file).isFile()).toBe(true);
  });

  test("files are 0600 and every directory created is 0700, even under umask 000", async () => {
    const sessions = join(root(), "fresh", "nested", "sessions");
    const child = spawnBun(
      `process.umask(0); const s = S.SessionManager.init({ cwd: "/w/x", provider: "p", model: "m" }); s.appendMessage(S.messageToDisk({ role: "system", content: [] })); s.close(); const o = await S.SessionManager.open(s.sessionFile); o.appendMessage(S.messageToDisk({ role: "system", content: [] })); o.close(); console.log(s.sessionFile);`,
      { ...process.env, AWL_SESSION_DIR: sessions },
    );
    expect(await child.exited).toBe(0);
    const file = (await new Response(child.stdout).text()).trim();
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(file)).toBe(0o600);
    for (const dir of [join(root(), "fresh"), join(root(), "fresh", "nested"), sessions, join(sessions, "--w-x--")]) expect(mode(dir)).toBe(0o700);
    expect(readdirSync(join(sessions, "--w-x--"))).toHaveLength(1); // the pid sidecar is gone after close
  });
});
