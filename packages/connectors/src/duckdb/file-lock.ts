import { errorText } from '../errors.ts';

/** How long an open waits for another process to let go of a DuckDB file. */
const LOCK_WAIT_MS = 15_000;

/**
 * Runs `open` again while the file is locked by another process: the engine process of a server
 * that was just killed exits when its channel closes, a moment after the server
 * (docs/architecture.md "The DuckDB engine process"). Any other failure is thrown at once.
 */
export async function openWhenUnlocked<T>(open: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!/lock/i.test(errorText(error)) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
