// Where a bash command runs (docs/sandbox.md): the mode the person chose
// (--sandbox, AWL_SANDBOX; --sandbox-network and their settings for the
// network), whether bubblewrap works here, and the level each command gets.
// The mode is fixed for the process from the person's own flags, environment
// and settings: nothing a tool call, a command or a project file says
// changes it.

import { homedir } from "node:os";
import { resolve } from "node:path";
import type { SandboxRun } from "./bwrap";
import type { SandboxMode } from "./mode";
import { probeSandbox, type Probe } from "./probe";
import type { SandboxSettings } from "./settings";

export { bwrapArgv, sandboxEnded, sandboxStarted, type SandboxRun } from "./bwrap";
export { isSandboxMode, SANDBOX_MODES, type SandboxMode } from "./mode";
export { refusalNote, sandboxRefusal } from "./refusal";
export { DEFAULT_SANDBOX_SETTINGS, sandboxSettingsOf, UNREADABLE_SANDBOX_SETTINGS, type SandboxSettings } from "./settings";

export class Sandbox {
  /** What the probe found, once ready() resolved; undefined when the mode is off. */
  #probe: Probe | undefined;
  readonly #probing: Promise<Probe> | undefined;

  constructor(
    readonly mode: SandboxMode,
    readonly settings: SandboxSettings,
    /** --sandbox-network off: no command gets the network. */
    readonly networkOff = false,
    env: Record<string, string | undefined> = process.env,
    private readonly home = env.HOME || homedir(),
  ) {
    // Started now, awaited by ready(): the probe's few milliseconds pass while the model's catalogue loads.
    this.#probing = mode === "off" ? undefined : probeSandbox(env);
  }

  /** Resolves once it is known whether bwrap works here; call before the first command and the banner. */
  async ready(): Promise<this> {
    this.#probe = await this.#probing;
    return this;
  }

  /** For the banner and /session: `workspace-write`, `read-only, no network`, `off`, `off (bwrap is not installed)`. */
  describe(): string {
    if (this.mode === "off") return "off";
    if (this.#probe && !this.#probe.ok) return `off (${this.#probe.reason})`;
    return this.mode === "read-only" || !this.network ? `${this.mode}, no network` : this.mode;
  }

  /** Said once at start when the sandbox was asked for and cannot run: why, how to fix it, and that approvals alone guard commands. */
  startNotice(): string | undefined {
    if (!this.#probe || this.#probe.ok) return undefined;
    const fix = this.#probe.fix ? `; ${this.#probe.fix}` : "";
    return `The sandbox is off: ${this.#probe.reason}${fix}. Commands are guarded by the approvals alone (--sandbox off silences this).`;
  }

  get network(): boolean {
    return !this.networkOff && this.settings.network;
  }

  /**
   * Where one command runs: judged read-only and run without asking, or any
   * command in read-only mode, with nothing writable and no network; one the
   * person approved (or auto ran), in the writable roots. Undefined: outside
   * the sandbox (off, or it cannot run here).
   */
  runFor(unasked: boolean, root: string): SandboxRun | undefined {
    // Never outside the sandbox for want of waiting: a bug, not a quiet fallback.
    if (this.#probing && !this.#probe) throw new Error("the sandbox was used before ready()");
    if (!this.#probe?.ok) return undefined;
    const level = unasked || this.mode === "read-only" ? "no-write" : "write";
    return { bwrap: this.#probe.bwrap, level, network: level === "write" && this.network, root, writable: this.settings.writable };
  }

  /**
   * What the project folder is when workspace-write would make the person's
   * home folder writable (it is that folder, holds it, or is /): such a
   * command is asked about instead. Undefined for an ordinary project.
   */
  wholeRoot(root: string): string | undefined {
    if (!this.#probe?.ok || this.mode !== "workspace-write") return undefined;
    const where = resolve(root);
    const home = resolve(this.home);
    if (where === "/") return "/";
    if (where === home) return "your home folder";
    return home.startsWith(`${where}/`) ? "a folder that holds your home folder" : undefined;
  }
}
