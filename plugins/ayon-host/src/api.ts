import { createServiceRef } from '@pipewright/sdk';
import type { AyonHost } from './host.js';

export type { AyonHost };

/** The ayonHost service of the ayon-host addon: the Python sidecar running AYON packages' server code. */
export const ayonHostRef = createServiceRef<AyonHost>({ addon: 'ayon-host', id: 'ayonHost' });
