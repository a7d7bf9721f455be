import { isProgress } from './progress';
import { NO_FILTER, type Filter } from './rows';

// Other screens link to the overview with its filter on (the dashboard's figures: ?show=task&progress=overdue,
// ?show=task&status=Approved). As with ?folder= and ?task=, the address is a way in: the filter it names replaces
// the one of the working view when the screen opens (and is kept in it from then on), and leaves the address.

const PARAMS = ['search', 'status', 'type', 'show', 'progress'];

/** The filter the address names, or null when it names none. */
export function filterFromAddress(): Filter | null {
  const params = new URLSearchParams(location.search);
  if (!PARAMS.some((name) => params.has(name))) return null;
  const show = params.get('show');
  const progress = params.get('progress') ?? '';
  return {
    ...NO_FILTER,
    text: params.get('search') ?? '',
    status: params.get('status') ?? '',
    type: params.get('type') ?? '',
    kind: show === 'folder' || show === 'task' ? show : 'all',
    progress: isProgress(progress) ? progress : '',
  };
}

/** Take the filter out of the address (without a history entry), so a reload shows the working view. */
export function forgetFilterInAddress(): void {
  const url = new URL(location.href);
  for (const name of PARAMS) url.searchParams.delete(name);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}
