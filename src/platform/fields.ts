import { ValidationError } from './errors.ts';
import { isDate, isTimestamp } from './time.ts';

interface FieldOptions {
  required?: boolean;
}

/**
 * Reads and checks the fields of an administration action's data (`academy admin … --data '{…}'`),
 * collecting every problem keyed by field, so that one run reports them all. A field that is absent
 * reads as `undefined`, an explicit `null` as `null` (to clear an optional value); a required field
 * may be neither. A field the action does not know is an error too.
 */
export class Fields {
  readonly #data: Record<string, unknown>;
  readonly #errors: Record<string, string[]> = {};

  constructor(data: Record<string, unknown>, known: readonly string[]) {
    this.#data = data;
    for (const field of Object.keys(data)) {
      if (!known.includes(field)) this.add(field, `The ${field} field is not recognised (known: ${known.join(', ')}).`);
    }
  }

  has(field: string): boolean {
    return this.#data[field] !== undefined;
  }

  add(field: string, message: string): void {
    this.#errors[field] = [...(this.#errors[field] ?? []), message];
  }

  /** Whether `field` has a problem already (later checks of it are then skipped). */
  failed(field: string): boolean {
    return this.#errors[field] !== undefined;
  }

  #read(field: string, options: FieldOptions): unknown {
    const value = this.#data[field];
    if ((value === undefined || value === null) && options.required) {
      this.add(field, `The ${field} field is required.`);
      return undefined;
    }
    return value;
  }

  text(field: string, options: FieldOptions & { max?: number; pattern?: RegExp; hint?: string } = {}): string | null | undefined {
    const value = this.#read(field, options);
    if (value === undefined || value === null) return value;
    const max = options.max ?? 10_000;
    if (typeof value !== 'string' || value.trim() === '') {
      this.add(field, `The ${field} field must be a non-empty string.`);
      return undefined;
    }
    const text = value.trim();
    if (text.length > max) this.add(field, `The ${field} field must be at most ${max} characters.`);
    else if (options.pattern && !options.pattern.test(text)) this.add(field, options.hint ?? `The ${field} field has an invalid format.`);
    else return text;
    return undefined;
  }

  integer(field: string, options: FieldOptions & { min?: number; max?: number } = {}): number | null | undefined {
    const value = this.#read(field, options);
    if (value === undefined || value === null) return value;
    const min = options.min ?? Number.MIN_SAFE_INTEGER;
    const max = options.max ?? 2_147_483_647;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.add(field, `The ${field} field must be an integer from ${min} to ${max}.`);
      return undefined;
    }
    return value;
  }

  boolean(field: string, options: FieldOptions = {}): boolean | null | undefined {
    const value = this.#read(field, options);
    if (value === undefined || value === null) return value;
    if (typeof value !== 'boolean') {
      this.add(field, `The ${field} field must be true or false.`);
      return undefined;
    }
    return value;
  }

  /** A calendar date, YYYY-MM-DD. */
  date(field: string, options: FieldOptions = {}): string | null | undefined {
    const value = this.#read(field, options);
    if (value === undefined || value === null) return value;
    if (!isDate(value)) {
      this.add(field, `The ${field} field must be a date written YYYY-MM-DD.`);
      return undefined;
    }
    return value;
  }

  /** An RFC 3339 timestamp with a zone, returned in UTC (`2026-11-22T09:30:00.000Z`). */
  timestamp(field: string, options: FieldOptions = {}): string | null | undefined {
    const value = this.#read(field, options);
    if (value === undefined || value === null) return value;
    if (!isTimestamp(value)) {
      this.add(field, `The ${field} field must be an RFC 3339 timestamp with a time zone, e.g. 2027-01-11T09:00:00Z.`);
      return undefined;
    }
    return new Date(value).toISOString();
  }

  oneOf<const T extends readonly string[]>(field: string, values: T, options: FieldOptions = {}): T[number] | null | undefined {
    const value = this.#read(field, options);
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string' || !values.includes(value)) {
      this.add(field, `The ${field} field must be one of: ${values.join(', ')}.`);
      return undefined;
    }
    return value as T[number];
  }

  /** Throws the collected problems as one ValidationError (a 422 over HTTP, field errors at the CLI). */
  check(): void {
    if (Object.keys(this.#errors).length > 0) throw new ValidationError(this.#errors);
  }
}
