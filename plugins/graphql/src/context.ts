import type { RequestUser } from '@pipewright/sdk';

/** What every resolver receives: the logged-in caller (the route refuses anyone else before GraphQL runs). */
export interface GraphContext {
  caller: RequestUser;
}
