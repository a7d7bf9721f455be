import type { Entity } from '../model';
import type { FullLoad } from '../store/levels';

/** The toolbar's line about the grid: saving, reading the whole project, or how many rows show. */
export function summaryText({
  saving,
  progress,
  flat,
  full,
  entityCount,
  scopeEntity,
}: {
  saving: number;
  progress: number | null;
  flat: boolean;
  full: FullLoad;
  entityCount: number;
  scopeEntity: Entity | null;
}): string {
  if (saving > 0) return progress !== null ? `Saving… ${progress}%` : 'Saving…';
  if (flat && full.state === 'loading')
    return `Reading the whole project… ${full.count.toLocaleString()} read`;
  return `${entityCount.toLocaleString()} ${flat ? 'found' : 'shown'}${scopeEntity ? ` in ${scopeEntity.path}` : ''}`;
}
