import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import { useLiveEvents } from '@pipewright/sdk/ui';
import { showDrawing, type AnnotatedMedia, type Annotation } from './annotations';

/** How often a growing stroke is sent to the others: ten times a second reads as drawing, not as jumps. */
const SEND_EVERY_MS = 100;
/** A drawing not heard of for this long was given up (its author left, or lost the connection). */
const GIVEN_UP_MS = 3000;

/**
 * Objects others are drawing on the reviewable right now, as they grow (annotation.drawing), until each is drawn
 * for good; and `send`, which shows the caller's own drawing to them, at most ten times a second.
 */
export function useLiveDrawing(client: PipewrightClient, media: AnnotatedMedia, kept: Set<string>) {
  const [others, setOthers] = useState(new Map<string, { annotation: Annotation; heard: number }>());
  const mine = useRef(new Set<string>());
  useLiveEvents({
    client,
    topics: ['annotation.drawing'],
    project: media.project,
    onEvent: (event: LiveEvent) => {
      const summary = event.summary as Record<string, any>;
      if (summary.reviewableId !== media.reviewableId || mine.current.has(summary.annotationId)) return;
      const { annotationId: id, frame, color, shape, author } = summary;
      setOthers((current) =>
        new Map(current).set(id, { annotation: { id, frame, color, shape, author }, heard: Date.now() }),
      );
    },
  });
  // Drop what was drawn for good (it is among the kept objects now) and what nobody sends any more.
  useEffect(() => {
    const timer = setInterval(() => {
      setOthers((current) => {
        const now = Date.now();
        const left = [...current].filter(([id, { heard }]) => !kept.has(id) && now - heard < GIVEN_UP_MS);
        return left.length === current.size ? current : new Map(left);
      });
    }, 500);
    return () => clearInterval(timer);
  }, [kept]);

  const last = useRef({ at: 0, pending: null as Annotation | null, timer: 0 });
  const send = useCallback(
    (annotation: Annotation) => {
      mine.current.add(annotation.id);
      const state = last.current;
      state.pending = annotation;
      const flush = () => {
        state.timer = 0;
        const next = state.pending;
        if (!next) return;
        state.pending = null;
        state.at = Date.now();
        void showDrawing(client, media, next).catch(() => undefined);
      };
      if (!state.timer)
        state.timer = window.setTimeout(flush, Math.max(0, state.at + SEND_EVERY_MS - Date.now()));
    },
    [client, media],
  );
  const live = [...others.values()].map(({ annotation }) => annotation).filter(({ id }) => !kept.has(id));
  return { live, send };
}
