/**
 * A file-system error as a short reason, e.g. "no such file or directory (ENOENT)". The
 * path is left out because every caller already names it in its own words.
 */
export function describeFsError(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') {
    const text = 'message' in err && typeof err.message === 'string' ? err.message : '';
    // Node's messages look like "ENOENT: no such file or directory, open '/x'".
    const reason = text.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
    return reason ? `${reason} (${err.code})` : err.code;
  }
  return err instanceof Error ? err.message : String(err);
}
