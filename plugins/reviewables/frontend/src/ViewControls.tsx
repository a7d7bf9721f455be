import { PlayerButton } from './PlayerButton';
import type { ViewControl } from './use-view';

// Zoom out, the zoom level (a click fits the picture), zoom in, and 100 %: beside the transport, or under an image.

export function ViewControls({ control }: { control: ViewControl }) {
  const { locked, percent } = control;
  const button = (label: string, title: string, text: string, onClick: () => void, className?: string) => (
    <PlayerButton
      label={label}
      title={locked ? 'The driver of the session pans and zooms' : title}
      onClick={onClick}
      disabled={locked}
      className={className}
    >
      {text}
    </PlayerButton>
  );
  return (
    <span className="pwr-view-controls" role="group" aria-label="Zoom">
      {button('Zoom out', 'Zoom out (-)', '−', () => control.zoomBy(0.5))}
      {button(
        `Zoom ${percent} %: fit`,
        'Fit the picture (0, F)',
        `${percent} %`,
        control.fit,
        'pwr-zoom-level',
      )}
      {button('Zoom in', 'Zoom in (+)', '+', () => control.zoomBy(2))}
      {button('Actual size', 'One picture pixel a screen pixel (1)', '1:1', control.actualSize)}
    </span>
  );
}
