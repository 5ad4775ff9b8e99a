// /new, /resume and session ids, through the compiled binary in a real
// terminal (tmux): the REPL opens another session without leaving, the one it
// leaves is closed (its lock released) and resumable, the picker is the one of
// `awl sessions`, most recently active first, and an id is shown the same
// everywhere (banner, /session, the exit hint, `awl sessions`).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, sessionFileName } from "../../src/session/log/paths";
import { AWL, useE2eFixture, sessionFiles } from "./awl";
import { hasTmux, Terminal, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });

function send(line: string): void {
  term.type(line);
  term.keys("Enter");
}

/** Every line of a session file, parsed. */
async function log(file: string): Promise<any[]> {
  return (await Bun.file(file).text()).trim().split("\n").map((l) => JSON.parse(l));
}

/** The user prompts (text) a session file holds, in order. */
async function prompts(file: string): Promise<string[]> {
  return (await log(file)).filter((l) => l.message?.role === "user").flatMap((l) => l.message.content.filter((b: any) => b.type === "text").map((b: any) => b.text));
}

/** The texts of the user messages a request carried. */
const sent = (request: { body: any }) =>
  request.body.messages.filter((m: any) => m.role === "user").flatMap((m: any) => (typeof m.content === "string" ? [m.content] : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text)));

const count = (screen: string, text: string) => screen.split(text).length - 1;

describe.skipIf(!hasTmux)("/new and /resume in a real terminal", () => {
  test("/new: a new session with the model in use; the old one is closed (its lock released) and resumable", async () => {
    fx.server.reply(text("answer one"), text("from outside"), text("answer two"));
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 140 });
    await term.waitFor(/\/help for commands/);
    send("the first session's prompt");
    await term.waitFor(/answer one/);
    send("/model openai/gpt-4o");
    await term.waitFor(/Using openai\/gpt-4o/);
    const [old] = sessionFiles(fx.sessions);
    const oldId = (await log(old!))[0].id as string;

    send("/new");
    const screen = await term.waitFor(/new session · openai\/gpt-4o .*\/help for commands/);
    const left = /Left session ([0-9a-f-]+) \(3 messages, saved\): \/resume \1 returns to it\./.exec(screen);
    expect(left).not.toBeNull();
    expect(oldId.startsWith(left![1]!)).toBe(true);
    expect(count(screen, "/help for commands")).toBe(2); // the banner, again

    // Still in the REPL, the old session's lock is released: another awl continues it.
    const outside = await fx.run(["-p", "continued from outside", "--resume", left![1]!]);
    expect(outside).toMatchObject({ code: 0, stdout: "from outside\n" });
    expect(await prompts(old!)).toEqual(["the first session's prompt", "continued from outside"]);

    send("the second session's prompt");
    await term.waitFor(/answer two/);
    const files = sessionFiles(fx.sessions);
    expect(files).toHaveLength(2);
    const fresh = files.find((f) => f !== old)!;
    expect(await prompts(fresh)).toEqual(["the second session's prompt"]);
    // The model in use went with it; none of the old conversation did.
    const last = fx.server.requests.at(-1)!;
    expect(last.path).toBe("/v1/chat/completions");
    expect(last.body.model).toBe("gpt-4o");
    expect(sent(last)).toEqual(["the second session's prompt"]);

    term.keys("C-d");
    const end = await term.waitFor(/\[exited 0\]/);
    const hint = /Resume this session with: awl --resume ([0-9a-f-]+)/.exec(end);
    expect((await log(fresh))[0].id.startsWith(hint![1])).toBe(true);
  });

  test("/resume: the picker, most recently active first; Esc stays; Enter continues the chosen session with its own model", async () => {
    fx.server.reply(text("a"), text("b"), text("a again"), text("gamma answer"), text("gamma answer again"), text("beta answer again"));
    expect((await fx.run(["-p", "alpha prompt", "--model", "openai/gpt-4o"])).code).toBe(0);
    expect((await fx.run(["-p", "beta prompt"])).code).toBe(0);
    const [alpha, beta] = sessionFiles(fx.sessions);
    // alpha was made first, but is the most recently active now.
    expect((await fx.run(["-p", "alpha again", "--resume", (await log(alpha!))[0].id])).code).toBe(0);

    term.start([AWL, "--model", "openai/gpt-4o"], { cwd: fx.project, env: fx.env, width: 140 });
    await term.waitFor(/\/help for commands/);
    send("gamma prompt");
    await term.waitFor(/gamma answer/);
    const gamma = sessionFiles(fx.sessions).find((f) => f !== alpha && f !== beta)!;

    send("/resume");
    let screen = await term.waitFor(/pick one to resume \(Esc goes back\)[\s\S]*beta prompt/);
    const picker = screen.slice(screen.lastIndexOf("pick one to resume"));
    // This session, then alpha (active last), then beta (made last): as --resume ranks them.
    const order = ["gamma prompt", "alpha prompt", "beta prompt"].map((p) => picker.indexOf(p));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(picker).toMatch(/gamma prompt \(open here\)/);
    term.keys("Escape");
    await Bun.sleep(300);
    send("still gamma");
    await term.waitFor(/gamma answer again/);
    expect(await prompts(gamma)).toEqual(["gamma prompt", "still gamma"]);

    send("/resume");
    await term.waitFor(/Esc goes back\)[\s\S]*beta prompt[\s\S]*Enter: confirm/);
    term.keys("Down"); // from alpha, the first that can be picked, to beta
    await Bun.sleep(200);
    term.keys("Enter");
    const betaId = (await log(beta!))[0].id as string;
    screen = await term.waitFor(/resumed [0-9a-f-]+ "beta prompt" · anthropic\/claude-sonnet-5-5 .*\/help for commands/);
    const resumed = /resumed ([0-9a-f-]+) "beta prompt" ·/.exec(screen.slice(screen.lastIndexOf("Left session")))![1]!;
    expect(betaId.startsWith(resumed)).toBe(true);
    expect(screen.slice(screen.lastIndexOf("Left session"))).toContain("beta prompt"); // its transcript

    send("beta continued");
    await term.waitFor(/beta answer again/);
    expect(await prompts(beta!)).toEqual(["beta prompt", "beta continued"]);
    const last = fx.server.requests.at(-1)!;
    expect(last.path).toBe("/v1/messages"); // its own model, not the gpt-4o this REPL started with
    expect(sent(last)).toEqual(["beta prompt", "beta continued"]);
    expect(await prompts(gamma)).toEqual(["gamma prompt", "still gamma"]);
    // The session it left is closed: another awl may take it.
    fx.server.reply(text("gamma from outside"));
    expect((await fx.run(["-p", "outside", "--resume", (await log(gamma))[0].id])).code).toBe(0);

    term.keys("C-d");
    screen = await term.waitFor(/\[exited 0\]/);
    expect(screen).toContain(`Resume this session with: awl --resume ${resumed}`);
  });

  test("/resume <id> opens that session; one open in another awl, or this one, is refused and the REPL stays", async () => {
    fx.server.reply(text("a"), text("b"), text("still here"));
    await fx.run(["-p", "alpha prompt"]);
    await fx.run(["-p", "beta prompt"]);
    const [alpha, beta] = sessionFiles(fx.sessions);
    const alphaId = (await log(alpha!))[0].id as string;
    const betaId = (await log(beta!))[0].id as string;
    const other = new Terminal();
    try {
      other.start([AWL, "--resume", betaId], { cwd: fx.project, env: fx.env, width: 140 });
      await other.waitFor(/\/help for commands/);
      term.start([AWL, "--resume", alphaId], { cwd: fx.project, env: fx.env, width: 140 });
      await term.waitFor(/\/help for commands/);
      send(`/resume ${alphaId}`);
      await term.waitFor(/is the session open here\./);
      send(`/resume ${betaId}`);
      await term.waitFor(/by another awl process \(pid \d+\); close that one first/);
      send("/resume ffff");
      await term.waitFor(/no session in this directory matches 'ffff' by id or title \(\/resume lists them\)/);
      send("still alpha");
      await term.waitFor(/still here/);
      expect(await prompts(alpha!)).toEqual(["alpha prompt", "still alpha"]);
      other.keys("C-d");
      await other.waitFor(/\[exited 0\]/);
      send(`/resume ${betaId}`);
      await term.waitFor(/resumed [0-9a-f-]+ "beta prompt" · /); // the banner names it by its first prompt's title
      term.keys("C-d");
      await term.waitFor(/\[exited 0\]/);
    } finally {
      other.close();
    }
  });

  test("a resumed session whose provider cannot be used here continues with the model in use, and says so", async () => {
    fx.server.reply(text("from openai"), text("from anthropic"));
    await fx.run(["-p", "made with openai", "--model", "openai/gpt-4o"]);
    const [file] = sessionFiles(fx.sessions);
    const id = (await log(file!))[0].id as string;
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" }, width: 200 });
    await term.waitFor(/\/help for commands/);
    send(`/resume ${id}`);
    const screen = await term.waitFor(/resumed [0-9a-f-]+ "made with openai" · anthropic\/claude-sonnet-5-5/);
    expect(screen).toContain(
      "This session last used openai/gpt-4o, but OPENAI_API_KEY is not set (awl reads it when it starts): it continues with anthropic/claude-sonnet-5-5.",
    );
    send("and now?");
    await term.waitFor(/from anthropic/);
    expect(fx.server.requests.at(-1)!.path).toBe("/v1/messages");
    expect(await prompts(file!)).toEqual(["made with openai", "and now?"]);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

/** Six session files of this project whose ids share their first 11 characters (UUIDv7s made within 16 ms do). */
function sessionsSharingAPrefix(): string[] {
  const dir = join(fx.sessions, encodeCwd(fx.project));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
  return [1, 2, 3, 4, 5, 6].map((n) => {
    const id = `019dc5ba-53${n}6-71a5-ab8f-b1f8709c257${n}`;
    const at = `2026-04-25T17:40:1${n}.990Z`;
    const lines = [
      { type: "session", version: 1, id, timestamp: at, cwd: fx.project, ...M },
      { type: "message", id: "s0000000", parentId: null, timestamp: at, message: { role: "system", content: [{ type: "text", text: "sys" }] } },
      { type: "message", id: "u0000000", parentId: "s0000000", timestamp: at, ...M, message: { role: "user", content: [{ type: "text", text: `prompt ${n}` }] } },
      {
        type: "message",
        id: "a0000000",
        parentId: "u0000000",
        timestamp: at,
        message: { role: "assistant", content: [{ type: "text", text: `answer ${n}` }], ...M, stopReason: "stop", usage: { input: 10, output: 2 } },
      },
    ];
    writeFileSync(join(dir, sessionFileName(at, id)), lines.map((l) => JSON.stringify(l)).join("\n") + "\n", { mode: 0o600 });
    return id;
  });
}

describe.skipIf(!hasTmux)("session ids", () => {
  test("the banner, /session, the exit hint, awl sessions and the /resume picker show the same shortest unique prefix", async () => {
    const ids = sessionsSharingAPrefix();
    const short = "019dc5ba-533"; // the first 11 characters are the same in all six
    expect(ids[2]!.startsWith(short)).toBe(true);

    const plain = await fx.run(["sessions"]);
    expect(plain.stdout.trim().split("\n").map((l) => l.split("  ")[0])).toEqual(ids.map((id) => id.slice(0, 12)));

    term.start([AWL, "--resume", "019dc5ba-533"], { cwd: fx.project, env: fx.env, width: 140 });
    const banner = await term.waitFor(/\/help for commands/);
    expect(banner).toContain(`resumed ${short} · `);
    send("/session");
    expect(await term.waitFor(/Session {2}\S+/)).toMatch(new RegExp(`^Session  ${short}$`, "m"));
    send("/resume");
    const picker = await term.waitFor(/Enter: confirm/);
    for (const id of ids) expect(picker).toContain(`${id.slice(0, 12)}  `);
    expect(picker).toMatch(new RegExp(`${short} .*prompt 3 \\(open here\\)`));
    term.keys("Escape");
    await Bun.sleep(300);
    term.keys("C-d");
    const end = await term.waitFor(/\[exited 0\]/);
    expect(end).toContain(`Resume this session with: awl --resume ${short}\n`);

    const pick = new Terminal();
    try {
      pick.start([AWL, "sessions"], { cwd: fx.project, env: fx.env, width: 140 });
      const list = await pick.waitFor(/Enter: confirm/);
      expect(list).toContain(`${short}  `);
      expect(list).not.toMatch(/019dc5ba-53\d{2}/);
      pick.keys("Escape");
      await pick.waitFor(/\[exited 0\]/);
    } finally {
      pick.close();
    }
  });
});
