import { createServiceRef } from '@pipewright/sdk';

// What this addon offers other addons: they list `greetings: greetingsRef` in their deps and receive the service.

/** Greetings for users, in the words the studio set. */
export interface Greetings {
  /** The greeting for a user, counting the visit: "Hello, ada" and how many times ada was greeted. */
  greet(userName: string): Promise<{ message: string; visits: number }>;
}

export const greetingsRef = createServiceRef<Greetings>({ addon: '__NAME__', id: '__NAME__.greetings' });
