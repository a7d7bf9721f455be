import { useCallback, useEffect, useRef } from 'react';
import { messageOf } from '@pipewright/sdk/ui';
import { takeEntityFromAddress, type EntityRef } from '../address';
import type { Entity } from '../model';
import type { ProjectStore } from '../store/ProjectStore';
import type { Notice } from '../Toast';

/**
 * A link names a folder or task to open: read when the screen opens and whenever the address changes. The entity
 * and the folders above it are found (read when not known yet) and handed to `show`, which must stay the same
 * function from render to render (as `say` does).
 */
export function useRevealFromAddress({
  store,
  project,
  focusId,
  show,
  say,
}: {
  store: ProjectStore;
  project: string;
  /** The entity focused now: a link to it changes nothing. */
  focusId: string | null;
  show(chain: Entity[], wanted: EntityRef): void;
  say(notice: Notice): void;
}) {
  const focusRef = useRef(focusId);
  focusRef.current = focusId;
  const revealEntity = useCallback(
    async (wanted: EntityRef, isCurrent: () => boolean) => {
      let chain: Entity[] | null;
      try {
        chain = await store.locate(wanted.kind, wanted.id);
      } catch (failure) {
        if (isCurrent())
          say({
            kind: 'error',
            text: `The linked ${wanted.kind} could not be read: ${messageOf(failure)}`,
          });
        return;
      }
      if (!isCurrent()) return;
      if (!chain) {
        say({
          kind: 'error',
          text: `The ${wanted.kind} this link points to is not in ${project}, or you may not see it.`,
        });
        return;
      }
      show(chain, wanted);
    },
    [store, project, show, say],
  );

  // A ref rather than a flag per effect run: React may run the effect twice on mount (strict mode), and the
  // second run finds the address already read.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    const fromAddress = () => {
      const wanted = takeEntityFromAddress();
      if (wanted && wanted.id !== focusRef.current) void revealEntity(wanted, () => mounted.current);
    };
    fromAddress();
    window.addEventListener('popstate', fromAddress);
    return () => {
      mounted.current = false;
      window.removeEventListener('popstate', fromAddress);
    };
  }, [revealEntity]);
}
