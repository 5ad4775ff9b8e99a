// Entry point: argv -> command -> exit code. Commands are imported lazily so
// `awl --version` and `awl sessions` never pay for what they do not use.

import { parseArgs } from "./cli/args";
import { UserError } from "./errors";

declare const AWL_VERSION: string;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const cwd = process.cwd();
  switch (args.command) {
    case "version":
      process.stdout.write(`awl ${typeof AWL_VERSION === "string" ? AWL_VERSION : "dev"}\n`);
      return 0;
    case "help":
      process.stdout.write((await import("./cli/help")).HELP);
      return 0;
    case "sessions":
      return (await import("./cli/sessions")).sessions(args, cwd);
    case "print":
      return (await import("./cli/print")).print(args, cwd);
    case "chat":
      return (await import("./cli/chat")).chat(args, cwd);
  }
}

// A closed pipe (`awl sessions | head -1`) is not an error worth a message.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UserError) {
    process.stderr.write(`awl: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`awl: internal error: ${message} (please report this with the command you ran)\n`);
    process.exitCode = 1;
  }
}
