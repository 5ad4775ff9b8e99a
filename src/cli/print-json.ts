// `awl -p --json`: stdout carries the session log as it is written
// (log-stream.ts), then one result line that says how the run ended: its
// status, session id, exit code, the usage of every request it made, and the
// error when there is one, in the words stderr has. Nothing else goes to
// stdout. The result line is written however the run ends once the arguments
// have parsed: a failure before the session opened (sessionId null), a stop
// signal (status interrupted, 128 + N), an internal error (status error, 1),
// a closed stdout (nobody to read it).

import type { SessionManager } from "../session";
import type { ResultLine } from "../session/log";
import type { Args } from "./args";
import { failureOf } from "./failure";
import { LogStream } from "./log-stream";
import { runPrint, type PrintOutcome } from "./print";
import { finishBeforeStopExit, stoppedBy } from "./stop";

/** The usage of a run that made no request. */
const NONE = { input: 0, output: 0 };

export async function printJson(args: Args, cwd: string): Promise<number> {
  const stream = new LogStream();
  let session: SessionManager | undefined;
  let outcome: PrintOutcome | undefined;
  // The one result line, written once: by the run's end, or by a stop that came first.
  let finished: Promise<number> | undefined;
  const finish = (o: PrintOutcome): Promise<number> => (finished ??= stream.finish(JSON.stringify(resultLine(o, session))).then(() => o.exitCode));
  // A stop exits from cli/stop.ts once the turn has settled: the result line goes out first.
  // A closed stdout exits 141 whatever was being written: as SIGPIPE ends a program at its failed write.
  finishBeforeStopExit(async (exitCode, error) => {
    const status = error === undefined ? "interrupted" : "error";
    const final = await finish({ usage: NONE, ...outcome, exitCode, status, ...(error === undefined ? {} : { error }) });
    return stoppedBy() === "SIGPIPE" ? exitCode : final;
  });
  try {
    outcome = await runPrint(args, cwd, {
      opened: (s) => {
        session = s;
        stream.follow(s);
      },
    });
  } catch (error) {
    const failure = failureOf(error);
    process.stderr.write(`awl: ${failure.message}\n`);
    outcome = { exitCode: failure.exitCode, status: "error", usage: NONE, error: failure.message };
  }
  if (stoppedBy()) return outcome.exitCode; // the stop writes the result line
  return finish(outcome);
}

function resultLine(o: PrintOutcome, session: SessionManager | undefined): ResultLine {
  return {
    type: "result",
    status: o.status,
    sessionId: session?.onDisk ? session.sessionId : null,
    exitCode: o.exitCode,
    usage: o.usage,
    ...(o.stopReason ? { stopReason: o.stopReason } : {}),
    ...(o.error !== undefined ? { error: { message: o.error } } : {}),
  };
}
