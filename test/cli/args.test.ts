import { describe, expect, test } from "bun:test";
import { parseArgs } from "../../src/cli/args";
import { UsageError } from "../../src/errors";

const usage = (argv: string[]) => {
  try {
    parseArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`expected a usage error for ${argv.join(" ")}`);
};

describe("command line", () => {
  test("no arguments start an interactive session", () => {
    expect(parseArgs([])).toMatchObject({ command: "chat", thinking: false });
  });

  test("--resume takes an optional id, in either spelling", () => {
    expect(parseArgs(["--resume"]).resume).toBe(true);
    expect(parseArgs(["--resume", "019dc5ba"]).resume).toBe("019dc5ba");
    expect(parseArgs(["--resume=019dc5ba"]).resume).toBe("019dc5ba");
    expect(parseArgs(["--resume", "-p", "hi"])).toMatchObject({ command: "print", resume: true, prompt: "hi" });
    expect(parseArgs(["-p", "hi", "--resume"])).toMatchObject({ command: "print", resume: true });
  });

  test("-p runs print mode, with - meaning stdin", () => {
    expect(parseArgs(["-p", "fix it"])).toMatchObject({ command: "print", prompt: "fix it" });
    expect(parseArgs(["-p", "-"])).toMatchObject({ command: "print", prompt: "-" });
  });

  test("sessions takes --plain or --json, not both", () => {
    expect(parseArgs(["sessions", "--json"])).toMatchObject({ command: "sessions", json: true });
    expect(usage(["sessions", "--json", "--plain"])).toContain("--plain");
  });

  test("help and version win over everything else", () => {
    expect(parseArgs(["--model", "x", "--help"]).command).toBe("help");
    expect(parseArgs(["-v"]).command).toBe("version");
  });

  test("bad flags and values are usage errors with a hint", () => {
    expect(usage(["--frobnicate"])).toBe("unknown option --frobnicate (see awl --help)");
    expect(usage(["-p"])).toContain("-p needs a value");
    expect(usage(["--provider", "gemini"])).toContain("unknown provider 'gemini'");
    expect(usage(["hello"])).toContain("unexpected argument 'hello'");
    expect(usage(["--plain"])).toContain("awl sessions");
    expect(usage(["--thinking=yes"])).toContain("takes no value");
    expect(usage(["sessions", "--resume"])).toContain("takes no");
  });
});
