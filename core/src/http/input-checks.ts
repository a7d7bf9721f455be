import type { Problem } from '@pipewright/sdk';

/** Deeper than any document the API takes (settings nest about ten levels); deeper input is an attack or a bug. */
export const MAX_DEPTH = 64;

/** Problems one answer lists at most: a 100,000-element array of wrong values must not answer 40 MB. */
export const MAX_PROBLEMS = 20;

/**
 * Values that pass a schema yet break what comes after it, found in one pass over parsed input: text PostgreSQL
 * cannot store (NUL bytes, lone surrogates), nesting that would overflow the stack of whatever walks it, and
 * numbers no column holds (1e999 parses as Infinity, 2**64 loses its digits). Object keys are checked as values are,
 * since they end up in JSONB too. Iterative, so the walk itself cannot overflow.
 */
export function inputProblems(value: unknown, root: (string | number)[]): Problem[] {
  const problems: Problem[] = [];
  const stack: { value: unknown; loc: (string | number)[] }[] = [{ value, loc: root }];
  while (stack.length && problems.length < MAX_PROBLEMS) {
    const { value: current, loc } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) problems.push({ loc, ...problem });
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current) || Math.abs(current) > Number.MAX_SAFE_INTEGER) {
        problems.push({ loc, msg: 'number out of range', type: 'value_error.number.out_of_range' });
      }
    } else if (current !== null && typeof current === 'object') {
      if (loc.length - root.length >= MAX_DEPTH) {
        problems.push({ loc, msg: `nested deeper than ${MAX_DEPTH} levels`, type: 'value_error.too_deep' });
        continue;
      }
      const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
      for (const [key, inner] of entries) {
        if (typeof key === 'string') {
          const problem = textProblem(key);
          if (problem) problems.push({ loc: [...loc, key], ...problem });
        }
        stack.push({ value: inner, loc: [...loc, key] });
      }
    }
  }
  return problems;
}

// With the u flag a surrogate pair reads as one code point, so only a lone surrogate matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function textProblem(text: string): Omit<Problem, 'loc'> | null {
  if (text.includes('\u0000'))
    return { msg: 'text must not contain NUL characters', type: 'value_error.nul' };
  if (LONE_SURROGATE.test(text)) {
    return { msg: 'text must be valid Unicode (it has a lone surrogate)', type: 'value_error.unicode' };
  }
  return null;
}
