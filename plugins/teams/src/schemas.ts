import { ProjectName, Type, UserName, type Static } from '@pipewright/sdk';

/**
 * A team as a path names it: any text, as in AYON (a name no team has is not found). The router keeps path
 * parameters to 512 characters, well inside what the teams table's primary key index can hold.
 */
export const TeamPathName = Type.String({ examples: ['lighting'] });

/** A team's name in the PATCH list: 2 to 64 characters, AYON's bounds there. */
const TeamName = Type.String({ minLength: 2, maxLength: 64, examples: ['lighting'] });

/** A role is a free label, as in AYON. */
const Role = Type.String({ examples: ['lead'] });
const Roles = Type.Array(Role, { default: [] });

export const TeamMember = Type.Object(
  {
    name: UserName,
    leader: Type.Boolean({ default: false }),
    roles: Roles,
  },
  { additionalProperties: false },
);
export type TeamMember = Static<typeof TeamMember>;

const Members = Type.Array(TeamMember);

/** An item of the PATCH list: a team with all its members. */
export const TeamInput = Type.Object(
  { name: TeamName, members: Type.Array(TeamMember, { default: [] }) },
  { additionalProperties: false },
);
export type TeamInput = Static<typeof TeamInput>;

export const TeamList = Type.Array(TeamInput);

// The team's name comes from the path; AYON's own clients send only members, others may echo the name.
export const TeamPut = Type.Object(
  { members: Members, name: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

// The member's name comes from the path; a missing flag or role list keeps the member's current one.
export const MemberPut = Type.Object(
  {
    leader: Type.Optional(Type.Boolean()),
    roles: Type.Optional(Type.Array(Role)),
    name: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const TeamParams = Type.Object({ project_name: ProjectName, team_name: TeamPathName });
/** The member's name is taken as given, as AYON takes it: a name no member has is not found. */
export const MemberParams = Type.Object({
  project_name: ProjectName,
  team_name: TeamPathName,
  member_name: Type.String(),
});

export const TeamsQuery = Type.Object({ show_members: Type.Boolean({ default: false }) });

export const TeamListItem = Type.Object({
  name: Type.String(),
  memberCount: Type.Integer(),
  members: Type.Optional(Type.Array(TeamMember)),
  leaders: Type.Array(TeamMember),
});

/** A bare list, as AYON answers it. */
export const TeamsResponse = Type.Array(TeamListItem);
