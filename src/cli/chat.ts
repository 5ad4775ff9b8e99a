// `awl` and `awl --resume [id]`: the interactive session.

import { Agent } from "../agent/agent";
import { Approvals } from "../agent/approval";
import { UserError } from "../errors";
import { sessionIdsByName, shortIdLength } from "../session";
import { colorsFor } from "../ui/colors";
import { runRepl } from "../ui/repl";
import { loadContextFiles } from "../agent/context-files";
import { contextFilesLine, contextNotice } from "../ui/instructions";
import { safeText } from "../ui/safe-text";
import { renderTranscript } from "../ui/transcript";
import { approvalMode, type Args } from "./args";
import { chooseModel } from "./model-choice";
import { openSession } from "./open-session";
import { guardOutput, hold, stopSignal } from "./stop";

declare const AWL_VERSION: string;

export async function chat(args: Args, cwd: string): Promise<number> {
  const mode = approvalMode(args);
  guardOutput();
  const c = colorsFor(process.stdout);
  const out = process.stdout;
  const { session, resumed, notices } = await openSession(cwd, args.resume, () => chooseModel(args, undefined));
  try {
    for (const notice of notices) out.write(`${c.yellow(safeText(notice))}\n`);
    const model = chooseModel(args, resumed ? session.activeModel() : undefined);
    // A new session's project instructions: read now, so the banner lists exactly what its system prompt will hold.
    const contextFiles = resumed ? undefined : loadContextFiles({ cwd });
    const approvals = new Approvals(mode);
    const agent = new Agent({ session, cwd, model, thinking: args.thinking, contextFiles, approvals }); // rebuilds the conversation, once
    if (resumed) {
      const transcript = renderTranscript(agent.conversation, c, out.columns ?? 100, session.context());
      if (transcript) out.write(`${transcript}\n\n`);
    }
    if (session.readOnly) throw new UserError(session.readOnlyReason ?? "this session cannot be continued by this version of awl");

    const version = typeof AWL_VERSION === "string" ? AWL_VERSION : "dev";
    const what = resumed ? `resumed ${session.sessionId.slice(0, 8)}` : "new session";
    out.write(c.dim(`awl ${version} · ${what} · ${safeText(`${model.provider}/${model.model}`)} · approve: ${mode} · /help for commands\n`));
    if (contextFiles) {
      const files = contextFilesLine(contextFiles.files, cwd);
      if (files) out.write(`${c.dim(files)}\n`);
      const notice = contextNotice(contextFiles, cwd);
      if (notice) out.write(`${c.yellow(notice)}\n`);
    }

    const warmUp = setTimeout(() => agent.warmUp(), 1); // fires once the prompt is drawn
    await runRepl(agent, c, out, { signal: stopSignal, hold });
    clearTimeout(warmUp);
    // After a stop signal nothing more is drawn (cli/stop.ts); awl exits once the session is closed.
    if (session.messageCount() > 0 && !stopSignal.aborted) out.write(c.dim(`Resume this session with: awl --resume ${shortId(cwd, session.sessionId)}\n`));
    return 0;
  } finally {
    session.close();
  }
}

function shortId(cwd: string, id: string): string {
  const ids = sessionIdsByName(cwd);
  return id.slice(0, shortIdLength(ids.includes(id) ? ids : [...ids, id]));
}
