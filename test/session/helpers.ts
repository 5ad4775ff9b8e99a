// Shared set-up for the session tests: a private session root per test (real
// files in a mkdtemp directory) and the spec's own example lines.
import { afterEach, beforeEach, expect } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd, parseLine, serializeEntry, serializeHeader, sessionFileName } from "../../src/session";

export const MODULE = join(import.meta.dir, "../../src/session/index.ts");

/** Points AWL_SESSION_DIR at a fresh temporary directory for each test; returns a getter for it. */
export function useSessionRoot(): () => string {
  let root = "";
  let saved: string | undefined;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "awl-session-test-"));
    saved = process.env.AWL_SESSION_DIR;
    process.env.AWL_SESSION_DIR = join(root, "sessions");
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.AWL_SESSION_DIR;
    else process.env.AWL_SESSION_DIR = saved;
    rmSync(root, { recursive: true, force: true });
  });
  return () => root;
}

/** The example lines of spec/phase-4.md, compacted to one line each exactly as a file holds them. */
export const SPEC = {
  header:
    '{"type":"session","version":1,"id":"019dc5ba-53f6-71a5-ab8f-b1f8709c2572","timestamp":"2026-04-25T17:40:15.990Z","cwd":"/Users/travis/Code/awl","provider":"anthropic","model":"claude-sonnet-4-20250514"}',
  system:
    '{"type":"message","id":"s1s2s3s4","parentId":null,"timestamp":"2026-04-25T14:00:00.000Z","message":{"role":"system","content":[{"type":"text","text":"You are a helpful assistant."}]}}',
  user: '{"type":"message","id":"a1b2c3d4","parentId":"s1s2s3s4","timestamp":"2026-04-25T14:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"What files are in this directory?"}]}}',
  assistant:
    '{"type":"message","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2026-04-25T14:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"The user wants to list files..."},{"type":"text","text":"I\'ll check that for you."},{"type":"toolUse","id":"tool_abc123","name":"bash","input":"{\\"command\\":\\"ls\\"}"}],"provider":"anthropic","model":"claude-sonnet-4-20250514","stopReason":"toolUse","usage":{"input":1500,"output":85}}}',
  toolResults:
    '{"type":"message","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2026-04-25T14:00:03.000Z","message":{"role":"user","content":[{"type":"toolResult","toolUseId":"tool_abc123","content":"file1.txt\\nfile2.txt"}]}}',
  stampedUser:
    '{"type":"message","id":"a1b2c3d4","parentId":"s1s2s3s4","timestamp":"2026-04-25T14:00:01.000Z","provider":"anthropic","model":"claude-sonnet-4-20250514","message":{"role":"user","content":[{"type":"text","text":"What files are in this directory?"}]}}',
  stampedToolResults:
    '{"type":"message","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2026-04-25T14:00:03.000Z","provider":"openai","model":"gpt-4o","message":{"role":"user","content":[{"type":"toolResult","toolUseId":"tool_abc123","content":"file1.txt\\nfile2.txt"}]}}',
};

/** A whole spec-example session file: header, system, stamped user, assistant, stamped tool results. */
export const specFile = () =>
  [SPEC.header, SPEC.system, SPEC.stampedUser, SPEC.assistant, SPEC.stampedToolResults].join("\n") + "\n";

/** Runs a script in a child `bun` with the session module importable as `S`. */
export function spawnBun(script: string, env: Record<string, string | undefined> = process.env) {
  const code = `import * as S from ${JSON.stringify(MODULE)};\n${script}`;
  return Bun.spawn(["bun", "-e", code], { env, stdout: "pipe", stderr: "pipe" });
}

/** The lines of the example under `heading` in docs/session-format.md, as the file holds them. */
export function docExample(heading: string): string[] {
  const doc = readFileSync(join(import.meta.dir, "../../docs/session-format.md"), "utf8");
  return new RegExp(`## ${heading}[\\s\\S]*?\`\`\`json\\n([\\s\\S]*?)\`\`\``).exec(doc)![1]!.trimEnd().split("\n");
}

/** Every line reads back and serializes to the same bytes: the example is what awl writes. */
export function expectWrittenByAwl(lines: string[]): void {
  for (const line of lines) {
    const parsed = parseLine(line)!;
    expect(parsed.kind === "header" ? serializeHeader(parsed.header) : parsed.entry.type === "opaque" ? "" : serializeEntry(parsed.entry)).toBe(line);
  }
}

/** Writes the example as a session file in its cwd's folder under AWL_SESSION_DIR; returns its path. */
export function writeExample(lines: string[]): string {
  const header = JSON.parse(lines[0]!);
  const dir = join(process.env.AWL_SESSION_DIR!, encodeCwd(header.cwd));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, sessionFileName(header.timestamp, header.id));
  writeFileSync(path, `${lines.join("\n")}\n`, { mode: 0o600 });
  return path;
}
