import { useCallback, useMemo, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import { useLoaded } from '@pipewright/sdk/ui';
import {
  changeAnnotation,
  drawAnnotation,
  readAnnotations,
  removeAnnotation,
  type AnnotatedMedia,
  type Annotation,
} from './annotations';

const TOPICS = ['annotation.created', 'annotation.updated', 'annotation.deleted', 'annotation.imported'];

/**
 * A reviewable's annotations, kept up to date by live events (someone else drawing), with drawing, changing and
 * removing shown at once and confirmed by the server. Objects are keyed by frame for the frame on screen.
 */
export function useAnnotations(client: PipewrightClient, media: AnnotatedMedia) {
  const [error, setError] = useState<string | null>(null);
  const loaded = useLoaded(
    () => readAnnotations(client, media),
    [client, media.project, media.reviewableId],
    {
      live: {
        client,
        topics: TOPICS,
        project: media.project,
        when: (event: LiveEvent) =>
          (event.summary as { reviewableId?: string }).reviewableId === media.reviewableId,
      },
    },
  );
  const { set, reload } = loaded;
  const all = useMemo(() => loaded.data ?? [], [loaded.data]);
  const byFrame = useMemo(() => {
    const frames = new Map<number, Annotation[]>();
    for (const annotation of all)
      frames.set(annotation.frame, [...(frames.get(annotation.frame) ?? []), annotation]);
    return frames;
  }, [all]);

  /** Show a change at once, then make it; if the server refuses, say so and read again what it holds. */
  const optimistic = useCallback(
    async (
      shown: (current: Annotation[]) => Annotation[],
      request: () => Promise<unknown>,
      failed: string,
    ) => {
      setError(null);
      set((current) => shown(current ?? []));
      try {
        await request();
      } catch (failure) {
        setError(`${failed}: ${(failure as Error).message}`);
        void reload();
      }
    },
    [set, reload],
  );
  const { add, change, remove } = useMemo(
    () => ({
      add: (annotation: Annotation) =>
        optimistic(
          (current) => [...current, annotation],
          () => drawAnnotation(client, media, annotation),
          'Not saved',
        ),
      change: (annotation: Annotation) =>
        optimistic(
          (current) => current.map((one) => (one.id === annotation.id ? annotation : one)),
          () => changeAnnotation(client, media, annotation),
          'Not changed',
        ),
      remove: (id: string) =>
        optimistic(
          (current) => current.filter((annotation) => annotation.id !== id),
          () => removeAnnotation(client, media, id),
          'Not removed',
        ),
    }),
    [optimistic, client, media],
  );
  return { byFrame, add, change, remove, error: error ?? loaded.error };
}
