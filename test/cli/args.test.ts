import { describe, expect, test } from "bun:test";
import { approvalMode, chosenEffort, parseArgs } from "../../src/cli/args";
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
    expect(parseArgs([])).toMatchObject({ command: "chat" });
    expect(parseArgs([]).effort).toBeUndefined(); // nothing is asked of the model's thinking: its default applies
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

  test("going back: --at and --fork go with --resume; sessions tree takes an id; rewind needs --to", () => {
    expect(parseArgs(["--resume", "019dc5ba", "--at", "6844ff"])).toMatchObject({ command: "chat", resume: "019dc5ba", at: "6844ff", fork: false });
    expect(parseArgs(["--resume", "019dc5ba", "--fork", "-p", "go"])).toMatchObject({ command: "print", fork: true });
    expect(usage(["--at", "6844ff"])).toContain("go with --resume");
    expect(usage(["--fork"])).toContain("go with --resume");
    expect(parseArgs(["sessions", "tree", "019dc5ba", "--json"])).toMatchObject({ command: "tree", session: "019dc5ba", json: true });
    expect(usage(["sessions", "tree"])).toContain("needs a session id");
    expect(parseArgs(["rewind", "--to", "6844ff", "--yes"])).toMatchObject({ command: "rewind", to: "6844ff", yes: true });
    expect(parseArgs(["rewind", "019dc5ba", "--to", "6844ff", "--conversation", "--dry-run"])).toMatchObject({ command: "rewind", session: "019dc5ba", dryRun: true });
    expect(usage(["rewind", "019dc5ba"])).toContain("--to");
    expect(parseArgs(["rewind", "--to", "6844ff", "--files", "--force"])).toMatchObject({ only: "files", force: true });
    expect(usage(["rewind", "--to", "6844ff", "--files", "--conversation"])).toContain("not both");
    expect(usage(["--to", "6844ff"])).toContain("belong to awl rewind");
  });

  test("models takes --provider and --json, nothing else", () => {
    expect(parseArgs(["models"])).toMatchObject({ command: "models", json: false });
    expect(parseArgs(["models", "--provider", "openai", "--json"])).toMatchObject({ command: "models", provider: "openai", json: true });
    expect(usage(["models", "--model", "x"])).toBe("awl models takes only --provider and --json (see awl --help)");
    expect(usage(["models", "sessions"])).toContain("unexpected argument 'sessions'");
  });

  test("sessions actions take their own words and options, and no others", () => {
    expect(parseArgs(["sessions", "rm", "019a", "019b"])).toMatchObject({ command: "sessions", action: "rm", targets: ["019a", "019b"] });
    expect(parseArgs(["sessions", "prune", "--older-than", "90d", "--dry-run", "--all"])).toMatchObject({ action: "prune", olderThan: "90d", dryRun: true, all: true });
    expect(parseArgs(["sessions", "purge"])).toMatchObject({ action: "purge", targets: [] });
    expect(usage(["sessions", "rm"])).toContain("needs a session id");
    expect(usage(["sessions", "prune"])).toContain("needs --older-than");
    expect(usage(["sessions", "du", "x"])).toContain("unexpected argument 'x'");
    expect(usage(["sessions", "rm", "019a", "--dry-run"])).toContain("awl sessions rm takes no --dry-run");
    expect(usage(["--all"])).toContain("belongs to awl sessions");
    expect(parseArgs(["explain", "prune"])).toMatchObject({ command: "chat", send: "explain prune" });
  });

  test("export takes one id, a format and -o; --json is not one of its formats", () => {
    expect(parseArgs(["export", "019a", "--html", "-o", "x.html"])).toMatchObject({ command: "export", targets: ["019a"], format: "html", output: "x.html" });
    expect(parseArgs(["export", "019a"]).format).toBeUndefined(); // Markdown
    expect(usage(["export"])).toContain("needs one session id");
    expect(usage(["export", "a", "b"])).toContain("needs one session id");
    expect(usage(["export", "a", "--md", "--html"])).toContain("choose one of --md, --html and --jsonl");
    expect(usage(["export", "a", "--json"])).toContain("--jsonl");
    expect(usage(["-o", "x"])).toContain("belongs to awl sessions and awl export");
  });

  test("help and version win over everything else", () => {
    expect(parseArgs(["--model", "x", "--help"]).command).toBe("help");
    expect(parseArgs(["-v"]).command).toBe("version");
  });

  test("bad flags and values are usage errors with a hint", () => {
    expect(usage(["--frobnicate"])).toBe("unknown option --frobnicate (see awl --help)");
    expect(usage(["-p"])).toContain("-p needs a prompt, or - to read it from stdin");
    expect(usage(["--provider", "gemini"])).toContain("unknown provider 'gemini'");
    expect(usage(["sessions", "hello"])).toContain("unexpected argument 'hello'");
    expect(usage(["--plain"])).toContain("awl sessions");
    expect(usage(["--thinking=yes"])).toContain("takes no value");
    expect(usage(["--effort", "extreme"])).toBe("unknown effort 'extreme': use off, low, medium, high, xhigh, max (see awl --help)");
    expect(usage(["--effort"])).toContain("--effort needs a value");
    expect(usage(["sessions", "--resume"])).toContain("takes no");
  });
});

describe("starting forms", () => {
  test("the first word that is not a command is the prompt the REPL sends first; the words after it are part of it", () => {
    expect(parseArgs(["fix the test"])).toMatchObject({ command: "chat", send: "fix the test" });
    expect(parseArgs(["fix", "the", "test"])).toMatchObject({ command: "chat", send: "fix the test" });
    expect(parseArgs(["--model", "gpt-5", "fix it", "--thinking"])).toMatchObject({ command: "chat", send: "fix it", model: "gpt-5", effort: "high" });
    expect(parseArgs(["explain", "sessions"])).toMatchObject({ command: "chat", send: "explain sessions" });
  });

  test("a command word comes first; after -- every word is the prompt's, options and commands included", () => {
    expect(parseArgs(["sessions"]).command).toBe("sessions");
    expect(parseArgs(["--", "sessions"])).toMatchObject({ command: "chat", send: "sessions" });
    expect(parseArgs(["--", "--help", "me"])).toMatchObject({ command: "chat", send: "--help me" });
    expect(parseArgs(["models"]).command).toBe("models");
    expect(parseArgs(["--", "models"])).toMatchObject({ command: "chat", send: "models" });
    expect(usage(["export"])).toContain("awl export needs one session id");
    expect(parseArgs(["--", "rewind"]).send).toBe("rewind");
    expect(parseArgs(["--", "export"]).send).toBe("export");
  });

  test("-c and --continue take no value and resume the latest session; a word after them is the prompt", () => {
    expect(parseArgs(["-c"])).toMatchObject({ command: "chat", resume: true });
    expect(parseArgs(["--continue"])).toMatchObject({ command: "chat", resume: true });
    expect(parseArgs(["-c", "fix it"])).toMatchObject({ command: "chat", resume: true, send: "fix it" });
    expect(parseArgs(["-c", "-p", "fix it"])).toMatchObject({ command: "print", resume: true, prompt: "fix it" });
    expect(parseArgs(["--resume", "019dc5ba", "fix it"])).toMatchObject({ resume: "019dc5ba", send: "fix it" });
    expect(parseArgs(["--resume", "fix it"]).send).toBeUndefined(); // words of a title, never a prompt
    expect(parseArgs(["--resume", "fix it"]).resume).toBe("fix it");
    expect(parseArgs(["-p", "--resume", "flaky test"])).toMatchObject({ command: "print", prompt: "", resume: "flaky test" });
    expect(usage(["--continue=yes"])).toContain("takes no value");
    expect(usage(["-c", "--resume", "019dc5ba"])).toContain("choose one of --continue and --resume");
    expect(usage(["sessions", "-c"])).toContain("takes no --continue");
  });

  test("the prompt is given once, and not empty", () => {
    expect(usage(["-p", "one", "two"])).toContain("give the prompt once");
    expect(usage([""])).toContain("the prompt is empty");
  });
});

describe("--approve and AWL_APPROVE", () => {
  const mode = (argv: string[], env: Record<string, string> = {}) => approvalMode(parseArgs(argv), env);
  const modeError = (argv: string[], env: Record<string, string> = {}) => {
    try {
      mode(argv, env);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as UsageError).message;
    }
    throw new Error("expected a usage error");
  };

  test("the REPL asks and -p runs everything, by default", () => {
    expect(mode([])).toBe("ask");
    expect(mode(["--resume"])).toBe("ask");
    expect(mode(["-p", "hi"])).toBe("auto");
  });

  test("--approve wins over AWL_APPROVE, which wins over the default", () => {
    expect(mode([], { AWL_APPROVE: "auto" })).toBe("auto");
    expect(mode(["--approve", "read-only"], { AWL_APPROVE: "auto" })).toBe("read-only");
    expect(mode(["--approve=ask"], { AWL_APPROVE: "read-only" })).toBe("ask");
    expect(mode(["-p", "hi"], { AWL_APPROVE: "read-only" })).toBe("read-only");
    expect(mode(["-p", "hi", "--approve", "auto"], { AWL_APPROVE: "ask" })).toBe("auto");
    expect(mode([], { AWL_APPROVE: "" })).toBe("ask");
  });

  test("-p cannot ask: --approve ask or AWL_APPROVE=ask with -p is a usage error", () => {
    expect(modeError(["-p", "hi", "--approve", "ask"])).toContain("--approve ask cannot be used with -p");
    expect(modeError(["-p", "hi"], { AWL_APPROVE: "ask" })).toContain("AWL_APPROVE=ask cannot be used with -p");
  });

  test("an unknown mode is a usage error, from the flag or the variable", () => {
    expect(usage(["--approve", "yes"])).toBe("unknown approval mode 'yes': use ask, auto, read-only (see awl --help)");
    expect(usage(["--approve"])).toContain("--approve needs a value");
    expect(modeError([], { AWL_APPROVE: "never" })).toContain("AWL_APPROVE=never is not an approval mode");
    expect(usage(["sessions", "--approve", "ask"])).toContain("takes no");
  });
});

describe("--effort and AWL_EFFORT", () => {
  test("--effort wins over AWL_EFFORT; --thinking is --effort high; none of them asks nothing", () => {
    expect(chosenEffort(parseArgs(["--effort", "low"]), { AWL_EFFORT: "max" })).toBe("low");
    expect(chosenEffort(parseArgs([]), { AWL_EFFORT: "max" })).toBe("max");
    expect(chosenEffort(parseArgs(["--thinking"]), {})).toBe("high");
    expect(chosenEffort(parseArgs(["--thinking", "--effort=off"]), {})).toBe("off");
    expect(chosenEffort(parseArgs([]), {})).toBeUndefined();
    expect(() => chosenEffort(parseArgs([]), { AWL_EFFORT: "lots" })).toThrow("AWL_EFFORT=lots is not an effort: use off, low, medium, high, xhigh, max");
  });
});

describe("-p in scripts: --json, --max-turns, --no-stdin", () => {
  test("--json belongs to -p (and to sessions and models); without -p it is a usage error", () => {
    expect(parseArgs(["-p", "hi", "--json"])).toMatchObject({ command: "print", json: true, prompt: "hi" });
    expect(usage(["--json"])).toContain("--json to -p");
    expect(usage(["fix it", "--json"])).toContain("--json to -p");
  });

  test("a bare -p takes the words after the options as its prompt, or continues with --resume", () => {
    expect(parseArgs(["-p", "--json", "fix", "it"])).toMatchObject({ command: "print", prompt: "fix it" });
    expect(parseArgs(["-p", "--resume", "abc"])).toMatchObject({ command: "print", prompt: "", resume: "abc" });
    expect(usage(["-p", "--json"])).toContain("-p needs a prompt");
  });

  test("--max-turns takes a whole number of at least 1; it and --no-stdin belong to -p", () => {
    expect(parseArgs(["-p", "x", "--max-turns", "2", "--no-stdin"])).toMatchObject({ maxTurns: 2, noStdin: true });
    expect(parseArgs(["-p", "x", "--max-turns=12"])).toMatchObject({ maxTurns: 12 });
    for (const bad of ["0", "-1", "1.5", "two", "01"]) expect(usage(["-p", "x", `--max-turns=${bad}`])).toContain("--max-turns needs a whole number");
    expect(usage(["--max-turns", "2"])).toContain("belong to -p");
    expect(usage(["--no-stdin"])).toContain("belong to -p");
    expect(usage(["sessions", "--no-stdin"])).toContain("awl sessions takes no");
    expect(usage(["-p", "-", "--no-stdin"])).toContain("--no-stdin forbids");
  });
});
