/**
 * Runs the store's engine requests one after another. Each learner action reads the state as it is
 * when its turn comes, so a burst of key presses applies in order against an up-to-date trace.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private size = 0;

  constructor(
    private readonly onSize: (size: number) => void,
    /** A held-down key must not queue minutes of work. */
    private readonly limit = 20,
  ) {}

  get length(): number {
    return this.size;
  }

  /** Resolves with the task's result; `fallback` when the queue is full or the task threw. */
  run<T>(task: () => Promise<T>, fallback: T, onError: (error: unknown) => Promise<void> | void): Promise<T> {
    if (this.size >= this.limit) return Promise.resolve(fallback);
    this.size++;
    this.onSize(this.size);
    const result = this.tail.then(async () => {
      try {
        return await task();
      } catch (error) {
        await onError(error);
        return fallback;
      } finally {
        this.size--;
        this.onSize(this.size);
      }
    });
    this.tail = result;
    return result;
  }
}
