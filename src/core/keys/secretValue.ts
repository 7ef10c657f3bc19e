// A key the service handed over once (a new service account's API key): the plaintext is read with reveal(), and
// every other way of turning the holder into text (a template, JSON, console.log, a log line) shows it masked, so
// logging a result by mistake leaks nothing.
import { maskKey } from '../redact.ts';

export class SecretValue {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The plaintext, for the one place that stores it (SecretStorage). */
  reveal(): string {
    return this.#value;
  }

  /** The masked form, safe to show. */
  get masked(): string {
    return maskKey(this.#value);
  }

  toString(): string {
    return this.masked;
  }

  toJSON(): string {
    return this.masked;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SecretValue(${this.masked})`;
  }
}
