/**
 * Filling a representation's path template ("{root[work]}/{project[name]}/.../v{version:0>3}<_{output}>.{ext}")
 * with the representation's data.context and the roots of a site.
 *
 * - {a[b][c]} and {a.b.c} read nested keys; {version:0>3} (or {version:03}) pads on the left.
 * - <...> is an optional part: kept when every key inside it is known, dropped otherwise.
 * - A key that is not known outside an optional part stays as written, so a path resolved without roots still
 *   shows "{root[work]}" for the client to fill in.
 */

type Context = Record<string, unknown>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]{}]+\]|\.[A-Za-z0-9_]+)*)(?::([^{}]*))?\}/g;

function lookup(context: Context, key: string): unknown {
  const parts = key.match(/[^.[\]]+/g) ?? [];
  let value: unknown = context;
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Python-style "0>3", "03", ">4" and "<4": only fill, alignment and width are honoured. */
function applySpec(text: string, spec: string | undefined): string {
  if (!spec) return text;
  const m = /^(?:(.)?([<>^]))?(0)?(\d+)$/.exec(spec);
  if (!m) return text;
  const [, fillChar, align, zero, widthText] = m;
  const width = Number(widthText);
  const fill = fillChar ?? (zero ? '0' : ' ');
  if (align === '<') return text.padEnd(width, fill);
  return text.padStart(width, fill);
}

function fill(template: string, context: Context): { text: string; complete: boolean } {
  let complete = true;
  const text = template.replace(PLACEHOLDER, (whole, key: string, spec: string | undefined) => {
    const value = lookup(context, key);
    if (value === undefined || value === null || typeof value === 'object') {
      complete = false;
      return whole;
    }
    return applySpec(String(value), spec);
  });
  return { text, complete };
}

/** The template with every known key filled in. */
export function formatTemplate(template: string, context: Context): string {
  // Optional parts first (they do not nest in AYON templates), then the rest. A key inside one may carry a ">"
  // of its own ({frame:0>4}), so braces are skipped whole.
  const withOptionals = template.replace(/<((?:\{[^{}]*\}|[^<>{}])*)>/g, (_whole, inner: string) => {
    const { text, complete } = fill(inner, context);
    return complete ? text : '';
  });
  return fill(withOptionals, context).text;
}

/**
 * Tidy a filled path the way AYON does: no doubled separators, and backslashes on Windows. A leading double
 * separator is kept, so UNC roots (//server/share) survive.
 */
export function normalisePath(path: string, platform: 'windows' | 'linux' | 'darwin'): string {
  const unc = /^[/\\]{2}(?![/\\])/.test(path);
  let tidy = path.replace(/[/\\]{2,}/g, (run, offset: number) => (offset === 0 && unc ? run : run[0]));
  if (platform === 'windows') tidy = tidy.replace(/\//g, '\\');
  return tidy;
}
