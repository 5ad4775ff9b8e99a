// The picker's preview of a session: its last prompts and answers, one line
// each ("you: …", "awl: …"), cut to the screen's width. Read once per session
// while the picker is open (moving up and down redraws often).
import { lastSaid } from "../../session/store";
import { fitWidth, oneLine } from "../render/format";

const seen = new Map<string, string[]>();

export function previewOf(path: string, count: number, width: number): string[] {
  const key = `${count} ${width} ${path}`;
  let lines = seen.get(key);
  if (!lines) {
    lines = lastSaid(path, count).map((s) => {
      const who = s.role === "user" ? "you: " : "awl: ";
      return fitWidth(`${who}${oneLine(s.text, width)}`, width);
    });
    seen.set(key, lines);
  }
  return lines;
}
