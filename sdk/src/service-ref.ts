/**
 * A typed handle on a service one addon offers to others. The providing addon exports it from its `api` entry
 * (with the service's interface); a dependant names it in `deps` and receives the service in setup, typed.
 */
export interface ServiceRef<T> {
  /** The addon that provides the service: naming the reference makes the dependant depend on it. */
  readonly addon: string;
  /** The service's name, unique on the server. */
  readonly id: string;
  /** Carries the service's type for the compiler; never set. */
  readonly type?: T;
}

/** Declare a service an addon provides; export the reference from the addon's `api` entry. */
export function createServiceRef<T>(ref: { addon: string; id: string }): ServiceRef<T> {
  return Object.freeze({ addon: ref.addon, id: ref.id });
}

/** An addon's dependencies: the name it reads each service by in setup, to the service's reference. */
export type ServiceRefs = Record<string, ServiceRef<any>>;

/** What setup receives for its deps: each reference resolved to its service. */
export type ServicesOf<D extends ServiceRefs> = {
  readonly [K in keyof D]: D[K] extends ServiceRef<infer T> ? T : never;
};
