/**
 * Marks a promise as React's `use` expects once it has fulfilled, so that `use` returns its value at
 * once instead of suspending for a tick. Attached first, this runs before React looks at the promise.
 */
export function settling<T>(promise: Promise<T>): Promise<T> {
  const tracked: Promise<T> & { status?: "fulfilled"; value?: T } = promise;
  tracked.then(
    (value) => Object.assign(tracked, { status: "fulfilled", value }),
    () => undefined,
  );
  return promise;
}
