// Entry point: argv -> command -> exit code. Every module is imported lazily so
// `awl --version` and `awl sessions` never pay for what they do not use; the
// fast paths print with console.log because merely touching process.stdout
// costs ~20 ms of start-up in a compiled binary (measured). Before anything
// else, the handlers that make every way out keep what awl has and restore the
// terminal (cli/stop.ts); before any command that touches a session or the
// network, no core dumps (core-dumps.ts: 0.4 ms, which `--version` and
// `--help`, 5 ms in all, do without), and no key left readable in
// /proc/<awl>/environ (environ-secrets.ts).

export {}; // a module, for its top-level await: it imports nothing statically

declare const AWL_VERSION: string;

// `awl --version` or `awl --help` alone answers before any other module loads:
// loading them costs ~4 ms beyond Bun's own start (measured: 13 ms against 9).
const only = process.argv.length === 3 ? process.argv[2] : undefined;
if (only === "--version" || only === "-v") await about("version");
else if (only === "--help" || only === "-h") await about("help");
else await run(process.argv.slice(2));

async function about(command: "version" | "help"): Promise<void> {
  console.log(command === "version" ? `awl ${typeof AWL_VERSION === "string" ? AWL_VERSION : "dev"}` : (await import("./cli/help")).help().trimEnd());
}

/** Set by the commands that load the person's extensions. */
let extensionsMayRun = false;

async function main(argv: string[]): Promise<number> {
  const args = (await import("./cli/args")).parseArgs(argv);
  const cwd = process.cwd();
  switch (args.command) {
    case "version":
    case "help":
      await about(args.command);
      return 0;
  }
  (await import("./core-dumps")).disableCoreDumps();
  (await import("./environ-secrets")).hideSecretsFromProc();
  switch (args.command) {
    case "sessions":
      return (await import("./cli/sessions")).sessions(args, cwd);
    case "tree":
      return (await import("./cli/tree")).tree(args, cwd);
    case "rewind":
      return (await import("./cli/rewind")).rewind(args, cwd);
    case "models":
      return (await import("./cli/models")).models(args);
    case "mcp":
      return (await import("./cli/mcp")).mcp(args, cwd);
    case "export":
      return (await import("./cli/export")).exportCommand(args, cwd);
    case "extensions":
      extensionsMayRun = !args.noExtensions;
      return (await import("./cli/extensions")).extensions(args, cwd);
    case "print":
      extensionsMayRun = !args.noExtensions;
      return args.json ? (await import("./cli/print-json")).printJson(args, cwd) : (await import("./cli/print")).print(args, cwd);
    case "chat":
      extensionsMayRun = !args.noExtensions;
      return (await import("./cli/chat")).chat(args, cwd);
  }
}

/** Every other command, with the handlers that make every way out keep what awl has, installed first. */
async function run(argv: string[]): Promise<void> {
  const { guardProcess, outputHasFailed } = await import("./cli/stop");
  guardProcess();
  try {
    const code = await main(argv);
    process.exitCode = outputHasFailed() ? 1 : code;
  } catch (error) {
    (await import("./ui/input/input-modes")).restoreTerminal(); // the error may have come out of a prompt in raw mode
    if ((error as NodeJS.ErrnoException)?.code === "EPIPE") {
      // A closed pipe (`awl sessions | head -1`) is not an error worth a message.
      process.exitCode = 0;
    } else {
      const failure = (await import("./cli/failure")).failureOf(error);
      process.stderr.write(`awl: ${failure.message}\n`);
      process.exitCode = failure.exitCode;
    }
  }
  // What an extension left running (a timer, a socket) must not keep awl alive once the command is done.
  if (extensionsMayRun && (await import("./extensions/load")).anyLoaded()) {
    // Once what was written has reached stdout and stderr.
    await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write("", () => resolve()))));
    process.exit();
  }
}
