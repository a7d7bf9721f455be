import { ValidationFailed, type RequestUser } from '@pipewright/sdk';
import { MAX_BODY_LENGTH } from '../markdown.js';

/** Keys of data the server owns: clients cannot set them. */
const SERVER_DATA = ['origin', 'parents', 'author', 'files', 'reactions', 'hasChecklist'];

/** Administrators and services change and delete other people's activities. */
export const isAdmin = (caller: RequestUser) => caller.isAdmin || caller.isService;

/** Client data without the keys the server owns. */
export function clientData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data ?? {}).filter(([key]) => !SERVER_DATA.includes(key)));
}

export function checkBody(body: string, loc: (string | number)[]): void {
  if (body.length > MAX_BODY_LENGTH)
    throw new ValidationFailed([
      {
        loc,
        msg: `The body is longer than ${MAX_BODY_LENGTH} characters`,
        type: 'value_error.any_str.max_length',
      },
    ]);
}
