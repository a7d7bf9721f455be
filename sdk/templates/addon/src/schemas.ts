import { Type } from '@pipewright/sdk';

/** The studio settings: what the greeting says. */
export const Settings = Type.Object({
  greeting: Type.String({ default: 'Hello', title: 'Greeting', minLength: 1 }),
});

/** GET /hello answers this. */
export const Greeting = Type.Object({
  message: Type.String(),
  visits: Type.Integer({ description: 'How many times the caller was greeted' }),
});
