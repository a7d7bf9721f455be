// Version order and server-version requirements of the market, as AYON has them: semantic versions, and
// requirements written as comma-separated comparisons that must all hold (">=1.1.0,<2.0.0"; no operator means ==).

/** A full semantic version: 1.2.3, 1.2.3-rc.1, 1.2.3+git. */
export const SEMVER_PATTERN =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$';

const CONDITION = '(>=|<=|==|!=|>|<|=)?\\s*\\d+(\\.\\d+){0,2}(-[0-9A-Za-z.-]+)?';
/** A server-version requirement: one or more comparisons separated by commas. */
export const REQUIREMENT_PATTERN = `^\\s*${CONDITION}(\\s*,\\s*${CONDITION})*\\s*$`;

interface Parsed {
  core: [number, number, number];
  pre: string[];
}

/** Major, minor and patch (missing parts are 0) and the pre-release identifiers; build metadata is ignored. */
function parse(version: string): Parsed | null {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    version.trim(),
  );
  if (!match) return null;
  return {
    core: [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)],
    pre: match[4] ? match[4].split('.') : [],
  };
}

/** Semantic-version precedence: negative when a comes first, 0 when equal. Unparsable text sorts as text. */
export function compareVersions(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) if (left.core[i] !== right.core[i]) return left.core[i] - right.core[i];
  // A pre-release comes before its release: 1.0.0-rc.1 < 1.0.0.
  if (left.pre.length === 0 || right.pre.length === 0) return right.pre.length - left.pre.length;
  for (let i = 0; i < Math.max(left.pre.length, right.pre.length); i++) {
    const x = left.pre[i];
    const y = right.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const xNumeric = /^\d+$/.test(x);
    const yNumeric = /^\d+$/.test(y);
    if (xNumeric && yNumeric) return Number(x) - Number(y);
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** The highest of these versions, or null for none. */
export function highest(versions: Iterable<string>): string | null {
  let best: string | null = null;
  for (const version of versions) if (best === null || compareVersions(version, best) > 0) best = version;
  return best;
}

/** Whether the version meets every comparison of the requirement; no requirement is always met. */
export function satisfies(version: string, requirement: string | null | undefined): boolean {
  if (!requirement || requirement.trim() === '') return true;
  return requirement.split(',').every((part) => {
    const match = /^\s*(>=|<=|==|!=|>|<|=)?\s*(.+?)\s*$/.exec(part);
    if (!match) return false;
    const order = compareVersions(version, match[2]);
    switch (match[1]) {
      case '>=':
        return order >= 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      case '<':
        return order < 0;
      case '!=':
        return order !== 0;
      default:
        return order === 0;
    }
  });
}
