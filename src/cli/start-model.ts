// The session and model a run starts with, for -p and the REPL alike: the
// catalogue of the provider the flags and environment name is made ready
// first (its cache read, or its list fetched when there is none), so that a
// new session's header names the catalogue's default; a resumed session's
// model is checked with the provider when its list does not show it.

import { Catalogues } from "../providers/catalogue";
import type { Remedy } from "../providers/provider";
import type { ModelRef } from "../session";
import type { Args } from "./args";
import { chooseModel, isDefaultModel } from "./model-choice";
import { openSession, type OpenedSession } from "./open-session";

export interface Start {
  opened: OpenedSession;
  model: ModelRef;
  catalogues: Catalogues;
  /** True when nothing named the model: it is the provider's default. */
  isDefault: boolean;
  /** A resumed session's model that the provider no longer serves: the fact, and what to do (worded by the caller). */
  gone?: { fact: string; remedy: Remedy };
}

export async function startModel(args: Args, cwd: string, env: Record<string, string | undefined> = process.env): Promise<Start> {
  const catalogues = new Catalogues(env);
  await catalogues.of(chooseModel(args, undefined, env).provider).load();
  // --fork: the copy starts with the model the parent's path used last, unless a flag names another.
  const fork = args.fork ? { fork: { model: (parent: ModelRef) => chooseModel(args, parent, env, catalogues.newest) } } : {};
  const opened = await openSession(cwd, args.resume, () => chooseModel(args, undefined, env, catalogues.newest), { at: args.at, ...fork });
  const model = chooseModel(args, opened.resumed ? opened.session.activeModel() : undefined, env, catalogues.newest);
  const catalogue = catalogues.of(model.provider);
  await catalogue.load();
  const start: Start = { opened, model, catalogues, isDefault: !opened.resumed && isDefaultModel(args, env) };
  // A model merely missing from the list may be an alias the list does not show: only the provider's 404 for it means gone.
  if (opened.resumed && !args.model && catalogue.listed && !catalogue.listed.some((m) => m.id === model.model)) {
    if ((await catalogue.serves(model.model)) === false) {
      const remedy = catalogues.advise({ kind: "model", model: model.model }, catalogue.provider)!;
      start.gone = { fact: `This session's model, ${model.model}, is no longer served by ${catalogue.provider}`, remedy };
    }
  }
  return start;
}
