// The session and model a run starts with, for -p and the REPL alike: the
// catalogue of the provider the flags and environment name is made ready
// first (its cache read, or its list fetched when there is none), so that a
// new session's header names the catalogue's default; a resumed session's
// model is checked with the provider when its list does not show it. A
// resumed session keeps its effort as it keeps its model: the one stamped on
// its last prompt, unless --effort names another. What refusals taught earlier
// runs about how a model thinks is recalled first (providers/thinking-lessons.ts).

import { Catalogues } from "../providers/catalogue";
import type { Remedy } from "../providers/provider";
import type { Effort } from "../providers/thinking-forms";
import { isEffort } from "../providers/thinking-forms";
import { recallThinkingLessons } from "../providers/thinking-lessons";
import type { ModelRef, SessionManager } from "../session";
import { chosenEffort, type Args } from "./args";
import { chooseModel, isDefaultModel } from "./model-choice";
import { atTerminal, openSession, type OpenedSession } from "./open-session";

export interface Start {
  opened: OpenedSession;
  model: ModelRef;
  /** --effort, else a resumed session's own, else AWL_EFFORT; undefined: the model's default. */
  effort?: Effort;
  catalogues: Catalogues;
  /** True when nothing named the model: it is the provider's default. */
  isDefault: boolean;
  /** A resumed session's model that the provider no longer serves: the fact, and what to do (worded by the caller). */
  gone?: { fact: string; remedy: Remedy };
}

export async function startModel(args: Args, cwd: string, env: Record<string, string | undefined> = process.env): Promise<Start> {
  chosenEffort(args, env); // a bad AWL_EFFORT is said before a session is opened (or a fork written)
  const catalogues = new Catalogues(env);
  recallThinkingLessons(env); // a model an earlier run learnt always thinks is refused --effort off before any request
  await catalogues.of(chooseModel(args, undefined, env).provider).load();
  // --fork: the copy starts with the model the parent's path used last, unless a flag names another.
  const fork = args.fork ? { fork: { model: (parent: ModelRef) => chooseModel(args, parent, env, catalogues.newest) } } : {};
  const opened = await openSession(cwd, args.resume, () => chooseModel(args, undefined, env, catalogues.newest), { at: args.at, ...fork, pick: args.command === "chat" && atTerminal() });
  const model = chooseModel(args, opened.resumed ? opened.session.activeModel() : undefined, env, catalogues.newest);
  const catalogue = catalogues.of(model.provider);
  await catalogue.load();
  const effort = chosenEffort(args, env, opened.resumed ? keptEffort(opened.session) : undefined);
  const start: Start = { opened, model, effort, catalogues, isDefault: !opened.resumed && isDefaultModel(args, env) };
  // A model merely missing from the list may be an alias the list does not show: only the provider's 404 for it means gone.
  if (opened.resumed && !args.model && catalogue.listed && !catalogue.listed.some((m) => m.id === model.model)) {
    if ((await catalogue.serves(model.model)) === false) {
      const remedy = catalogues.advise({ kind: "model", model: model.model }, catalogue.provider)!;
      start.gone = { fact: `This session's model, ${model.model}, is no longer served by ${catalogue.provider}`, remedy };
    }
  }
  return start;
}

/** The effort stamped on the session's last prompt (the one its next request would have had), if any. */
export function keptEffort(session: SessionManager): Effort | undefined {
  const last = session.getBranch().findLast((e) => e.type === "message" && e.message.role === "user" && !!e.provider);
  const effort = last?.type === "message" ? last.effort : undefined;
  return effort !== undefined && isEffort(effort) ? effort : undefined;
}
