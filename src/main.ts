// Entry point: argv -> command -> exit code. Commands are imported lazily so
// `awl --version` and `awl sessions` never pay for what they do not use; the
// fast paths print with console.log because merely touching process.stdout
// costs ~20 ms of start-up in a compiled binary (measured). Before anything
// else, the handlers that make every way out keep what awl has and restore the
// terminal (cli/stop.ts); before any command that touches a session or the
// network, no core dumps (core-dumps.ts: 0.4 ms, which `--version` and
// `--help`, 5 ms in all, do without), and no key left readable in
// /proc/<awl>/environ (environ-secrets.ts).

import { disableCoreDumps } from "./core-dumps";
import { hideSecretsFromProc } from "./environ-secrets";
import { parseArgs } from "./cli/args";
import { guardProcess, outputHasFailed } from "./cli/stop";
import { UserError } from "./errors";
import { safeText } from "./ui/render/safe-text";
import { restoreTerminal } from "./ui/input/input-modes";

guardProcess();

declare const AWL_VERSION: string;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const cwd = process.cwd();
  switch (args.command) {
    case "version":
      console.log(`awl ${typeof AWL_VERSION === "string" ? AWL_VERSION : "dev"}`);
      return 0;
    case "help":
      console.log((await import("./cli/help")).help().trimEnd());
      return 0;
  }
  disableCoreDumps();
  hideSecretsFromProc();
  switch (args.command) {
    case "sessions":
      return (await import("./cli/sessions")).sessions(args, cwd);
    case "models":
      return (await import("./cli/models")).models(args);
    case "export":
      return (await import("./cli/export")).exportCommand(args, cwd);
    case "print":
      return (await import("./cli/print")).print(args, cwd);
    case "chat":
      return (await import("./cli/chat")).chat(args, cwd);
  }
}

try {
  const code = await main(process.argv.slice(2));
  process.exitCode = outputHasFailed() ? 1 : code;
} catch (error) {
  restoreTerminal(); // the error may have come out of a prompt in raw mode
  if ((error as NodeJS.ErrnoException)?.code === "EPIPE") {
    // A closed pipe (`awl sessions | head -1`) is not an error worth a message.
    process.exitCode = 0;
  } else if (error instanceof UserError) {
    // A message may quote what an API, a model or a session file said: shown made safe.
    process.stderr.write(`awl: ${safeText(error.message)}\n`);
    process.exitCode = error.exitCode;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`awl: internal error: ${safeText(message)} (please report this with the command you ran)\n`);
    process.exitCode = 1;
  }
}
