// A system error, worded for one line of a tool result: "no space left on
// device (ENOSPC)" rather than "ENOSPC: no space left on device, write".

export function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const plain = /^[A-Z0-9_]+: (.*?)(?:, [a-z]+(?: '.*')?)?$/s.exec(error.message)?.[1];
  return code && plain ? `${plain} (${code})` : error.message;
}
