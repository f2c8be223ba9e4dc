/**
 * The one queue in front of the engine: learner actions and single requests take turns in the order they
 * came, an action holds its turn across its requests, and a replaced engine fails what was asked of it.
 */
import { describe, expect, it } from 'vitest';
import { LabQueue, type Send } from '../../src/webworker/lab-queue';
import type { LabRequest } from '../../src/webworker/protocol';

/** An engine that answers each request when the test says so, and logs what it was sent. */
function engine() {
  const sent: string[] = [];
  const answers: ((error?: Error) => void)[] = [];
  const send = ((request: LabRequest) => {
    sent.push(nameOf(request));
    return new Promise<string>((resolve, reject) => answers.push((error) => (error ? reject(error) : resolve(nameOf(request)))));
  }) as unknown as Send;
  /** Answers the oldest unanswered request (with `error`, as a watchdog fails it), then lets the queue move on. */
  const answer = async (error?: Error) => {
    answers.shift()?.(error);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { sent, send, answer };
}

function nameOf(request: LabRequest): string {
  return request.type === 'apply' ? request.candidates.join('') : request.type;
}

const apply = (token: string): LabRequest => ({ type: 'apply', candidates: [token], fallback: false });

describe('LabQueue', () => {
  it('runs actions and requests in the order they came, an action holding its turn across its requests', async () => {
    const { sent, send, answer } = engine();
    const queue = new LabQueue(send);
    const first = queue.act(async (own) => `${await own(apply('A'))}${await own(apply('B'))}`);
    const between = queue.request(apply('X'));
    const second = queue.act(async (own) => own(apply('C')));
    for (let i = 0; i < 4; i++) await answer();
    expect(sent).toEqual(['A', 'B', 'X', 'C']);
    expect(await first).toBe('AB');
    expect(await between).toBe('X');
    expect(await second).toBe('C');
  });

  it('goes on after an action that failed', async () => {
    const { send, answer } = engine();
    const queue = new LabQueue(send);
    const failed = queue.act(() => Promise.reject(new Error('no')));
    const next = queue.act(async (own) => own(apply('A')));
    await expect(failed).rejects.toThrow('no');
    await answer();
    expect(await next).toBe('A');
  });

  it("when the engine is replaced under a single request, fails the requests waiting and the next action's first request", async () => {
    const { sent, send, answer } = engine();
    const queue = new LabQueue(send);
    const hung = queue.request(apply('H'));
    const waiting = queue.request(apply('W'));
    const action = queue.act(async (own) => {
      const heard: string[] = [];
      for (const token of ['A', 'B']) heard.push(String(await own(apply(token)).catch((error: Error) => error.message)));
      return heard;
    });
    const later = queue.act(async (own) => own(apply('C')));
    queue.engineReplaced((request) => new Error(`replaced before ${nameOf(request)}`));
    await expect(waiting).rejects.toThrow('replaced before W');
    const hangs = expect(hung).rejects.toThrow('hung');
    await answer(new Error('hung'));
    await hangs;
    await answer();
    await answer();
    expect(await action).toEqual(['replaced before A', 'B']);
    expect(await later).toBe('C');
    expect(sent).toEqual(['H', 'B', 'C']);
  });

  it('when the engine is replaced under an action, leaves the actions behind it alone', async () => {
    const { sent, send, answer } = engine();
    const queue = new LabQueue(send);
    const running = queue.act(async (own) => own(apply('A')));
    const next = queue.act(async (own) => own(apply('B')));
    queue.engineReplaced(() => new Error('replaced'));
    const hangs = expect(running).rejects.toThrow('hung');
    await answer(new Error('hung'));
    await hangs;
    await answer();
    expect(await next).toBe('B');
    expect(sent).toEqual(['A', 'B']);
  });
});
