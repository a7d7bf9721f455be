import { useCallback, useState } from 'react';
import type { Entity } from '../model';
import type { GridRow } from '../rows';
import { toggled } from '../sets';

/**
 * The selected rows, the one focused (its details show) and the anchor a shift-click stretches the selection from;
 * `reveal` asks the grid to scroll a row into view.
 */
export function useSelection(rows: GridRow[]) {
  const [selection, setSelection] = useState<Set<string>>(() => new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [reveal, setReveal] = useState<{ id: string } | null>(null);
  const [showDetail, setShowDetail] = useState(true);

  /** Select and focus this row alone (or none). */
  const only = useCallback((id: string | null) => {
    setSelection(id ? new Set([id]) : new Set());
    setAnchor(id);
    setFocusId(id);
  }, []);

  const revealRow = useCallback((id: string) => setReveal({ id }), []);

  /** A linked entity: selected, scrolled to, its details shown. */
  const focusOn = useCallback(
    (id: string) => {
      only(id);
      revealRow(id);
      setShowDetail(true);
    },
    [only, revealRow],
  );

  const select = (entity: Entity, how: 'only' | 'toggle' | 'range') => {
    setFocusId(entity.id);
    setShowDetail(true);
    if (how === 'toggle') {
      setSelection((current) => toggled(current, entity.id));
      setAnchor(entity.id);
    } else if (how === 'range' && anchor) {
      const ids = rows.flatMap((r) => (r.type === 'entity' ? [r.entity.id] : []));
      const [from, to] = [ids.indexOf(anchor), ids.indexOf(entity.id)].sort((a, b) => a - b);
      if (from! >= 0) setSelection(new Set(ids.slice(from, to! + 1)));
    } else if (!(selection.has(entity.id) && selection.size > 1)) {
      // A click inside a multi-selection keeps it, so a double-click can edit every selected row at once.
      setSelection(new Set([entity.id]));
      setAnchor(entity.id);
    }
  };

  /** The keyboard's up and down: the row `by` rows away becomes the selection. */
  const step = (by: number) => {
    const entityRows = rows.filter((r) => r.type === 'entity');
    const at = entityRows.findIndex((r) => r.entity.id === focusId);
    const next = entityRows[Math.min(entityRows.length - 1, Math.max(0, at + by))];
    if (next?.type !== 'entity') return;
    only(next.entity.id);
    revealRow(next.entity.id);
  };

  const clear = () => {
    setSelection(new Set());
    setFocusId(null);
  };

  const revealIndex = reveal ? rows.findIndex((r) => r.type === 'entity' && r.entity.id === reveal.id) : -1;
  return {
    selection,
    focusId,
    showDetail,
    setShowDetail,
    /** The row to scroll into view, if any. */
    revealIndex: revealIndex >= 0 ? revealIndex : null,
    only,
    revealRow,
    focusOn,
    select,
    step,
    clear,
  };
}
