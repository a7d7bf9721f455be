import { useState } from 'react';
import type { Entity } from '../model';
import { AddToListDialog } from './AddToListDialog';

// "Add to list" on the overview's selection: the selected tasks or folders, or the latest versions published
// from them, go into an entity list of the lists addon (a playlist or a review session), a new one or one that
// exists. The lists screen is the lists addon's; this only writes through its REST routes and links there.

/** The toolbar button and its dialog. `chosen` is the overview's selection (else the focused row). */
export function AddToList({ project, chosen }: { project: string; chosen: Entity[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={chosen.length === 0}
        title={
          chosen.length
            ? 'Put the selection, or its latest versions, in a list'
            : 'Select tasks or folders first'
        }
        onClick={() => setOpen(true)}
      >
        Add to list
      </button>
      {open && <AddToListDialog project={project} chosen={chosen} onClose={() => setOpen(false)} />}
    </>
  );
}
