/** The calls of one compactor, queued per conversation. */
export interface ConversationQueue {
  /**
   * The key of a call, made after the keys of the calls that arrived before it: keys can take a
   * digest, and calls of one conversation must still queue in the order they arrived.
   */
  keyInOrder(keyOf: () => string | Promise<string>): Promise<string>;
  /** Runs `task` after every task queued before it under `key`, whether they resolved or rejected. */
  inTurn<T>(key: string, task: () => Promise<T>): Promise<T>;
}

const settle = (promise: Promise<unknown>): Promise<void> =>
  promise.then(
    () => {},
    () => {},
  );

/**
 * One conversation's calls run in order, so the second of two concurrent calls sees the first's
 * state (and concurrent requests of a conversation summarize once). A conversation with nothing
 * queued holds no entry.
 */
export function conversationQueue(): ConversationQueue {
  const queues = new Map<string, Promise<void>>();
  let arrival: Promise<void> = Promise.resolve();
  return {
    keyInOrder(keyOf) {
      const keyed = arrival.then(keyOf);
      arrival = settle(keyed);
      return keyed;
    },
    inTurn(key, task) {
      const previous = queues.get(key) ?? Promise.resolve();
      const result = previous.then(task);
      const settled = settle(result);
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return result;
    },
  };
}
