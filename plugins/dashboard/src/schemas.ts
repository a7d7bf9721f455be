import { Type } from '@pipewright/sdk';

export const ActivityQuery = Type.Object({
  days: Type.Integer({
    default: 50,
    description: 'Number of days to retrieve activity for (none for 0 or less, a century at most)',
  }),
});

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const EntityCounts = Type.Object({
  folders: count('Number of folders'),
  products: count('Number of products'),
  versions: count('Number of versions'),
  representations: count('Number of representations'),
  tasks: count('Number of tasks'),
  workfiles: count('Number of workfiles'),
});

export const Health = Type.Object({
  completion: Type.Object(
    {
      percentage: Type.Integer({ description: 'Percentage of tasks completed' }),
      behind: Type.Integer({ description: 'Days by which unfinished tasks are past their end date, summed' }),
      ahead: Type.Integer({ description: 'Days by which finished tasks beat their end date, summed' }),
    },
    { description: 'Task completion' },
  ),
  storageUsage: Type.Object(
    {
      quota: Type.Integer({ description: 'Storage quota in bytes (0: not known)' }),
      used: Type.Integer({ description: 'Storage used in bytes (0: not known)' }),
    },
    { description: 'Storage usage' },
  ),
  tasks: Type.Object(
    {
      total: count('Total number of tasks'),
      completed: count('Number of tasks in a status whose state is done'),
      overdue: count('Number of unfinished tasks past their end date'),
    },
    { description: 'Task statistics' },
  ),
  statuses: Type.Record(Type.String(), Type.Integer(), { description: 'Number of tasks per status' }),
});

export const Activity = Type.Object({
  activity: Type.Array(Type.Integer(), {
    description: 'Changes per day, oldest first and today last, scaled to at most 100',
  }),
});

export const ProjectPeople = Type.Object({
  teamSizeActive: count('Number of active team members'),
  teamSizeTotal: count('Total number of team members'),
  usersWithAccessActive: count('Number of active users with access to the project'),
  usersWithAccessTotal: count('Total number of users with access to the project'),
  roles: Type.Record(Type.String(), Type.Integer(), {
    description: 'Number of users per access group of the project',
  }),
});
