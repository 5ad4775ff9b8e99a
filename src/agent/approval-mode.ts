// The approval modes by name: a module of its own, without imports, so the
// command line can check --approve and AWL_APPROVE without loading the policy
// (approval.ts) and the shell parser at every start.

export const APPROVAL_MODES = ["ask", "auto", "read-only"] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export function isApprovalMode(value: string): value is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(value);
}

/** One line on what a mode does, for /approve and /session. */
export function describeMode(mode: ApprovalMode): string {
  if (mode === "ask") return "calls that change files or run commands ask first; reading and read-only commands run";
  if (mode === "auto") return "every tool runs without asking";
  return "calls that change files and commands that may change them are refused";
}
