// A value made on first use and kept: the one place core holds module-level state, so that state is a const (a
// module-level `let` can be reassigned from anywhere in its file; test/lint/moduleState.test.ts keeps them out).

/** `make` runs on the first call; later calls return what it made (a rejected promise too). A throw keeps nothing. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
