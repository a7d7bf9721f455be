import { groups, SIDEBAR_NAME } from '../../content/pages.mjs';

// One sidebar, named Dev: a separator per group, then the group's pages in order. The docs root (index) and the
// category index pages are reachable but not listed.
const meta = {
  index: { display: 'hidden' },
  [`--${SIDEBAR_NAME}`]: { type: 'separator', title: SIDEBAR_NAME },
};
for (const group of groups) {
  meta[`--${group.id}`] = { type: 'separator', title: group.title };
  for (const [docId, title] of Object.entries(group.pages)) meta[docId] = title;
}
meta.category = { display: 'hidden' };

export default meta;
