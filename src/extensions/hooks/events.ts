// The events a hook can be configured for: Claude Code's names (docs/hooks.md).
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd", "Notification", "PreCompact"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
