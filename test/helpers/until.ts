// Waiting for state that arrives asynchronously (another process, a board message, a writer in
// the background): poll a condition, never sleep for a guessed time.

/** Resolves once `check()` holds, checked every 20 ms; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}
