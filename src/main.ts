// Entry point: argv -> command -> exit code. Commands are imported lazily so
// `awl --version` and `awl sessions` never pay for what they do not use; the
// fast paths print with console.log because merely touching process.stdout
// costs ~20 ms of start-up in a compiled binary (measured).

import { parseArgs } from "./cli/args";
import { UserError } from "./errors";

declare const AWL_VERSION: string;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const cwd = process.cwd();
  switch (args.command) {
    case "version":
      console.log(`awl ${typeof AWL_VERSION === "string" ? AWL_VERSION : "dev"}`);
      return 0;
    case "help":
      console.log((await import("./cli/help")).HELP.trimEnd());
      return 0;
    case "sessions":
      return (await import("./cli/sessions")).sessions(args, cwd);
    case "print":
      return (await import("./cli/print")).print(args, cwd);
    case "chat":
      return (await import("./cli/chat")).chat(args, cwd);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if ((error as NodeJS.ErrnoException)?.code === "EPIPE") {
    // A closed pipe (`awl sessions | head -1`) is not an error worth a message.
    process.exitCode = 0;
  } else if (error instanceof UserError) {
    process.stderr.write(`awl: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`awl: internal error: ${message} (please report this with the command you ran)\n`);
    process.exitCode = 1;
  }
}
