// The names the server accepts, as rules for an input's pattern (the browser says what is wrong before sending).

/** User names, service users' too. */
export const USER_NAME_RULES = {
  pattern: '[a-zA-Z0-9]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9])?',
  title: 'Letters and digits, with dots, dashes or underscores inside',
};

/** Access group names. */
export const GROUP_NAME_RULES = {
  pattern: '[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?',
  title: 'Letters, digits and underscores, with dots or dashes inside',
};
