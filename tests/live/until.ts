/**
 * Waits until `condition` holds, polling every `pollMs` of wall time, or fails after `timeoutMs`:
 * the live runtime's tests wait on what they check, never on a fixed sleep.
 */
export async function until(condition: () => boolean, timeoutMs: number, pollMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
