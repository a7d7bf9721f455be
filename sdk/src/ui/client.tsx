import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { PipewrightClient } from '../client/index.js';

// The session's API client reaches a screen's components through React context rather than props passed down
// every level. Each remote bundles its own copy of this module, so each exposed screen provides it for its tree.

const ClientContext = createContext<PipewrightClient | null>(null);

/** Gives the components below it the session's API client (useClient). */
export function ClientProvider({ client, children }: { client: PipewrightClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

/** The session's API client, from the screen around the component. */
export function useClient(): PipewrightClient {
  const client = useContext(ClientContext);
  if (!client)
    throw new Error('useClient is used outside a ClientProvider: wrap the exposed screen in exposedScreen');
  return client;
}

/**
 * What a remote exposes: the screen, its tree given the client of its props (ScreenProps.client) for useClient.
 * `export default exposedScreen(function Panel(props: ScreenProps) { ... })`.
 */
export function exposedScreen<P extends { client: PipewrightClient }>(Screen: ComponentType<P>) {
  return function ExposedScreen(props: P) {
    return (
      <ClientProvider client={props.client}>
        <Screen {...props} />
      </ClientProvider>
    );
  };
}
