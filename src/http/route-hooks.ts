/** A route's hook option (one function, a list, or none) as a list, to add hooks to it in `onRoute`. */
export function hookList<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
