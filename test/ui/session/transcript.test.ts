import { describe, expect, test } from "bun:test";
import { Conversation, textMessage, type Message } from "../../../src/conversation";
import { messageToDisk, SessionManager, type CompactionFields } from "../../../src/session";
import { colorsFor } from "../../../src/ui/render/colors";
import { renderAnswer } from "../../../src/ui/render/markdown-stream";
import { renderTranscript, TRANSCRIPT_LINES } from "../../../src/ui/session/transcript";
import { useSessionRoot } from "../../session/helpers";
import { CONTROL, unstyled } from "../../support/terminal-text";

const plain = colorsFor({ isTTY: false });
const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });

test("prompts on one line, answers cut to 8 lines, one line per tool call with the preview of its result", () => {
  const conversation = new Conversation([
    { role: "system", content: [{ type: "text", text: "You are awl." }] },
    prompt("list the files\nplease"),
    { role: "assistant", content: [{ type: "thinking", thinking: "hidden" }, { type: "toolUse", id: "t1", name: "bash", input: '{"command":"ls -la"}' }] },
    { role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: "a\nb" }] },
    { role: "assistant", content: [{ type: "toolUse", id: "t2", name: "read", input: '{"path":"missing.txt"}' }] },
    { role: "user", content: [{ type: "toolResult", toolUseId: "t2", content: "no such file:\nmissing.txt", isError: true }] },
    answer(Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n")),
  ]);
  expect(renderTranscript(conversation, plain, 80).split("\n")).toEqual([
    "› list the files please",
    "∴ Thought", // folded as live, its words never shown
    "● bash ls -la",
    "  ⎿ a",
    "    b",
    "● read missing.txt",
    "  ⎿ no such file:",
    "    missing.txt",
    ...Array.from({ length: 8 }, (_, i) => `line ${i + 1}`),
    "… 4 more lines",
  ]);
});

test("a long session shows its latest turns whole, and says how many came before", () => {
  const messages: Message[] = [];
  for (let turn = 1; turn <= 1000; turn++) messages.push(prompt(`prompt ${turn}`), answer(`answer ${turn}\nsecond line`));
  const lines = renderTranscript(new Conversation(messages), plain).split("\n");
  const shownTurns = lines.filter((l) => l.startsWith("› ")).length;
  expect(lines[0]).toBe(`… ${(1000 - shownTurns).toLocaleString("en-US")} earlier prompts and their answers not shown`);
  expect(lines[1]).toBe(`› prompt ${1000 - shownTurns + 1}`);
  expect(lines.slice(-3)).toEqual(["› prompt 1000", "answer 1000", "second line"]);
  expect(lines.length - 1).toBeGreaterThanOrEqual(TRANSCRIPT_LINES);
  expect(lines.length - 1).toBeLessThan(TRANSCRIPT_LINES + 3); // at most one turn over
});

test("one turn longer than the budget is still shown whole, with nothing hidden", () => {
  const calls: Message[] = Array.from({ length: 400 }, (_, i) => ({ role: "assistant", content: [{ type: "toolUse", id: `t${i}`, name: "bash", input: `{"command":"echo ${i}"}` }] }));
  const lines = renderTranscript(new Conversation([prompt("do it all"), ...calls]), plain).split("\n");
  expect(lines[0]).toBe("› do it all");
  expect(lines).toHaveLength(401);
});

test("on resume, escape sequences from the model and its tools are shown, never replayed (issue 11, item 4)", () => {
  const conversation = new Conversation([
    prompt("clear\x1b[2J it"),
    { role: "assistant", content: [{ type: "toolUse", id: "t1", name: "bash", input: JSON.stringify({ command: "printf '\x1b[2J'; exit 3" }) }] },
    { role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: "\x1b[2J\x1b]0;tool-title\x07\nexit code: 3", isError: true }] },
    { role: "assistant", content: [{ type: "toolUse", id: "t2", name: "no\x1b]0;such\x07tool", input: "{}" }] },
    { role: "user", content: [{ type: "toolResult", toolUseId: "t2", content: "unknown tool", isError: true }] },
    answer("Done.\x1b]0;model-title\x07\r\nScreen \x9b2J kept\u202e.\r"),
  ]);
  const expected = [
    "› clear␛[2J it",
    "● bash printf '␛[2J'; exit 3",
    "  ⎿ ␛[2J␛]0;tool-title␇",
    "    exit code: 3",
    "● no␛]0;such␇tool ",
    "  ⎿ unknown tool",
    "Done.␛]0;model-title␇",
    "Screen \\x9b2J kept\\u202e.",
  ];
  expect(renderTranscript(conversation, plain, 80).split("\n")).toEqual(expected);
  const styled = renderTranscript(conversation, colorsFor({ isTTY: true }, {}), 80);
  // With colour the answer is rendered as markdown (issue 12): its two lines are one paragraph.
  expect(unstyled(styled).split("\n")).toEqual([...expected.slice(0, -2), "Done.␛]0;model-title␇ Screen \\x9b2J kept\\u202e."]);
  expect(unstyled(styled)).not.toMatch(CONTROL);
  // The conversation itself (what the session file holds) is unchanged.
  expect((conversation.messages.at(-1)!.content[0] as { text: string }).text).toBe("Done.\x1b]0;model-title\x07\r\nScreen \x9b2J kept\u202e.\r");
});

test("on resume, answers are shown as they were live: rendered markdown with colour, the wrapped source without (issue 12)", () => {
  const markdown = "Use **this**:\n\n- `one`\n- two\n\n```sh\nls\n```";
  const conversation = new Conversation([prompt("how?"), answer(markdown)]);
  const colour = colorsFor({ isTTY: true }, {});
  const styled = renderTranscript(conversation, colour, 40);
  expect(styled.split("\n").slice(1).join("\n") + "\n").toBe(renderAnswer(markdown, 40));
  expect(Bun.stripANSI(styled).split("\n")).toEqual(["› how?", "Use this:", "  • one", "  • two", "", "┌─ sh", "│ ls", "└─"]);
  expect(renderTranscript(conversation, plain, 40).split("\n")).toEqual(["› how?", ...markdown.split("\n")]);
  // Cut after 8 rendered rows, with every style closed before the note.
  const long = renderTranscript(new Conversation([prompt("list"), answer(Array.from({ length: 12 }, (_, i) => `- **item ${i}**`).join("\n"))]), colour, 40).split("\n");
  expect(long).toHaveLength(10);
  expect(long[8]).toEndWith("\x1b[0m");
  expect(Bun.stripANSI(long[9]!)).toBe("… 4 more lines");
});

describe("a compacted session's transcript (issue 12, item 9)", () => {
  const root = useSessionRoot();

  const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
  const fields = (firstKeptEntryId: string, n: number, extra: Partial<CompactionFields> = {}): CompactionFields => ({
    n,
    summary: "The story so far.",
    firstKeptEntryId,
    keptPrompts: [],
    cutToolResults: [],
    window: 200_000,
    tokensBefore: 150_000,
    tokensAfter: 20_000,
    ...M,
    usage: { input: 5000, output: 400 },
    summarizedTurns: n,
    ...extra,
  });
  const turn = (s: SessionManager, t: number) => {
    const id = s.appendMessage(messageToDisk(textMessage("user", `prompt ${t}`)), M);
    s.appendMessage(messageToDisk(textMessage("assistant", `answer ${t}`), { ...M, stopReason: "stop", usage: { input: 1000, output: 50, cacheRead: 20_000 } }));
    return id;
  };
  const reopened = async (s: SessionManager) => {
    s.close();
    const again = await SessionManager.open(s.sessionFile);
    try {
      return renderTranscript(again, plain, 80, {}, {}).split("\n");
    } finally {
      again.close();
    }
  };

  test("/compact after a turn: the turns before it are one line; the kept turn, its usage line, then the compaction and the meter as /compact showed them", async () => {
    const s = SessionManager.init({ cwd: root(), ...M });
    s.appendMessage(messageToDisk(textMessage("system", "You are awl.")));
    turn(s, 1);
    const kept = turn(s, 2);
    s.appendCompaction(fields(kept, 1));
    expect(await reopened(s)).toEqual([
      "… 1 compaction, 1 turn summarized",
      "› prompt 2",
      "answer 2",
      "↑ 21k in (20k cached) · ↓ 50 out · ctx 11% of 200k",
      "compacted 150k -> 20k tokens",
      "ctx 10% of 200k",
    ]);
  });

  test("a compaction at the start of a turn is shown where it happened, and its summary request counts in the turn's usage", async () => {
    const s = SessionManager.init({ cwd: root(), ...M });
    s.appendMessage(messageToDisk(textMessage("system", "You are awl.")));
    turn(s, 1);
    const prompt = s.appendMessage(messageToDisk(textMessage("user", "prompt 2")), M);
    s.appendCompaction(fields(prompt, 1, { window: 100_000 }));
    s.appendMessage(messageToDisk(textMessage("assistant", "answer 2"), { ...M, stopReason: "stop", usage: { input: 3000, output: 60 } }));
    expect(await reopened(s)).toEqual([
      "… 1 compaction, 1 turn summarized",
      "› prompt 2",
      "compacted 150k -> 20k tokens",
      "answer 2",
      // 5,000 + 3,000 in, 400 + 60 out; against the window the compaction was made for.
      "↑ 8.0k in · ↓ 460 out · ctx 3% of 100k",
    ]);
  });
});
