// The sandbox modes by name: a module of its own, without imports, so the
// command line can check --sandbox and AWL_SANDBOX without loading the rest.
// See docs/sandbox.md for what each allows.

export const SANDBOX_MODES = ["workspace-write", "read-only", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export function isSandboxMode(value: string): value is SandboxMode {
  return (SANDBOX_MODES as readonly string[]).includes(value);
}
