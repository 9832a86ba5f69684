/**
 * A promise that settles in a task of its own (not a microtask): work after `await nextTask()`
 * runs once the browser had its turn (input, a frame, the parser's end of document), so a long
 * run of work split at these points is several short main-thread tasks instead of one long one.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
