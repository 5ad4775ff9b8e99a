// The "hooks" key of a settings file, as Claude Code writes it:
//   { "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "…", "timeout": 60 } ] } ] } }
// Each event is checked apart, so one wrong event does not cost the others.

import { ArkErrors, type } from "../../ark";
import { HOOK_EVENTS, type HookEvent } from "./events";
import { matcherProblem } from "./matcher";
import { isObject } from "../../json";

const HookEntry = type({ type: "string", "command?": "string", "timeout?": "number > 0" });
const Group = type({ "matcher?": "string", hooks: HookEntry.array() });
const Groups = Group.array();

/** A command hook: run with bash -c; `timeout` in seconds. */
export interface CommandHook {
  command: string;
  timeout?: number;
}

/** Hooks under one matcher (tool events: a tool name pattern; SessionStart: how it started). */
export interface HookGroup {
  matcher?: string;
  hooks: CommandHook[];
}

export interface ReadHooks {
  hooks: Partial<Record<HookEvent, HookGroup[]>>;
  /** `key`: the name in the file the problem is about, to find its line. */
  problems: { key?: string; message: string }[];
}

export function readHooks(settings: unknown): ReadHooks {
  const read: ReadHooks = { hooks: {}, problems: [] };
  if (!isObject(settings)) {
    read.problems.push({ message: "is not a JSON object; its hooks are skipped" });
    return read;
  }
  const hooks = settings.hooks;
  if (hooks === undefined) return read;
  if (!isObject(hooks)) {
    read.problems.push({ key: "hooks", message: '"hooks" is not an object of events; the hooks are skipped' });
    return read;
  }
  for (const [event, value] of Object.entries(hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      read.problems.push({ key: event, message: `awl has no hook event ${event}; those hooks are skipped (it has ${HOOK_EVENTS.join(", ")})` });
      continue;
    }
    const groups = Groups(value);
    if (groups instanceof ArkErrors) {
      read.problems.push({ key: event, message: `${event}: ${groups.summary}; those hooks are skipped` });
      continue;
    }
    const kept: HookGroup[] = [];
    for (const group of groups) {
      const bad = matcherProblem(group.matcher);
      if (bad) read.problems.push({ key: group.matcher, message: `${event}: ${bad}` });
      const commands: CommandHook[] = [];
      for (const hook of group.hooks) {
        if (hook.type !== "command" || hook.command === undefined) {
          read.problems.push({ key: event, message: `${event}: a hook of type "${hook.type}" is skipped: awl runs "command" hooks` });
          continue;
        }
        commands.push({ command: hook.command, ...(hook.timeout === undefined ? {} : { timeout: hook.timeout }) });
      }
      if (commands.length > 0) kept.push({ ...(group.matcher === undefined ? {} : { matcher: group.matcher }), hooks: commands });
    }
    if (kept.length > 0) read.hooks[event as HookEvent] = kept;
  }
  return read;
}
