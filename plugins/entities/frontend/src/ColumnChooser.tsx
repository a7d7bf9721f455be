import type { Column } from './grid/columns';
import { Popover } from './Popover';
import { canHide, columnSettings, type ColumnLayout, type ColumnSetting } from './views';

const MIN_WIDTH = 40;
const MAX_WIDTH = 1000;

/**
 * Which columns the grid shows, in which order, how wide, and which stay pinned at the left while the others
 * scroll. The result is a column layout, kept with the view like the filters.
 */
export function ColumnChooser({
  columns,
  layout,
  onChange,
}: {
  /** Every column the grid can show, in the usual order and width. */
  columns: Column[];
  layout: ColumnLayout;
  onChange(layout: ColumnLayout): void;
}) {
  const settings = columnSettings(columns, layout);
  const byName = new Map(columns.map((c) => [c.key, c]));
  const change = (name: string, patch: Partial<ColumnSetting>) =>
    onChange(settings.map((s) => (s.name === name ? { ...s, ...patch } : s)));
  const takeWidth = (name: string, input: HTMLInputElement) => {
    const width = Math.round(Number(input.value));
    if (width >= MIN_WIDTH && width <= MAX_WIDTH) change(name, { width });
    else input.value = String(settings.find((s) => s.name === name)?.width ?? byName.get(name)!.width);
  };
  const shift = (index: number, by: number) => {
    const next = [...settings];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next);
  };

  return (
    <Popover label="Columns" title="Columns" className="pwo-columns">
      {() => (
        <>
          <ol aria-label="Column order">
            {settings.map((setting, index) => {
              const column = byName.get(setting.name)!;
              const title = column.title;
              return (
                <li key={setting.name} data-column={setting.name}>
                  <label className="pwo-check" title={canHide(column) ? undefined : 'Always shown'}>
                    <input
                      type="checkbox"
                      aria-label={`Show ${title}`}
                      checked={setting.visible || !canHide(column)}
                      disabled={!canHide(column)}
                      onChange={(e) => change(setting.name, { visible: e.target.checked })}
                    />
                    {title}
                  </label>
                  <label className="pwo-check">
                    <input
                      type="checkbox"
                      aria-label={`Pin ${title}`}
                      checked={setting.pinned}
                      onChange={(e) => change(setting.name, { pinned: e.target.checked })}
                    />
                    pin
                  </label>
                  <input
                    // Typed freely, taken on Enter or on leaving the field (a half-typed 2 of 200 is no width).
                    key={setting.width ?? column.width}
                    type="number"
                    aria-label={`Width of ${title}`}
                    min={MIN_WIDTH}
                    max={MAX_WIDTH}
                    step={10}
                    defaultValue={setting.width ?? column.width}
                    onBlur={(e) => takeWidth(setting.name, e.currentTarget)}
                    onKeyDown={(e) => e.key === 'Enter' && takeWidth(setting.name, e.currentTarget)}
                  />
                  <button
                    type="button"
                    aria-label={`Move ${title} up`}
                    disabled={index === 0}
                    onClick={() => shift(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${title} down`}
                    disabled={index === settings.length - 1}
                    onClick={() => shift(index, 1)}
                  >
                    ↓
                  </button>
                </li>
              );
            })}
          </ol>
          <button type="button" disabled={layout.length === 0} onClick={() => onChange([])}>
            Usual columns
          </button>
        </>
      )}
    </Popover>
  );
}
