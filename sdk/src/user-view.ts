import { Type, type Static } from '@sinclair/typebox';
import { JsonObject } from './schemas.js';

/** A user as stored and as shown on the wire (GET /api/users/{name}). */
export interface UserRecord {
  name: string;
  active: boolean;
  attrib: Record<string, unknown>;
  /** Role flags (isAdmin, isManager, isService, isGuest, isDeveloper), accessGroups, frontendPreferences, ... */
  data: Record<string, unknown>;
  hasPassword: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A user as the API shows them (GET /api/users/{name}, the user of GET /api/info). Typed field by field, so an
 * answer's serializer writes it directly instead of walking an open object.
 */
export const User = Type.Object({
  name: Type.String(),
  active: Type.Boolean(),
  attrib: JsonObject,
  data: JsonObject,
  hasPassword: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** A stored user as the API shows it to the user themself: what a user source presents unless it hides more. */
export function presentUser(user: UserRecord): Static<typeof User> {
  return {
    name: user.name,
    active: user.active,
    attrib: user.attrib,
    data: user.data,
    hasPassword: user.hasPassword,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
