// An object whose every method call is followed by a notice (and again when a returned promise
// settles), so writes through the in-process admin handle reach the warehouse like API writes.
export function notifyingAfterCalls<T extends object>(target: T, notify: () => void): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = value.apply(object, args);
        } finally {
          notify();
        }
        if (result instanceof Promise) result.finally(notify).catch(() => undefined);
        return result;
      };
    },
  });
}
