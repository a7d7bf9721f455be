import nextra from 'nextra';

const withNextra = nextra({
  search: { codeblocks: false },
  defaultShowCopyCode: true,
});

// A static site: `next build` writes out/, which any static host serves (see scripts/serve.mjs for the mapping
// of /x to x.html that such a host needs).
export default withNextra({
  output: 'export',
  images: { unoptimized: true },
  reactStrictMode: true,
  env: { NEXT_PUBLIC_PIPEWRIGHT_SERVER: process.env.NEXT_PUBLIC_PIPEWRIGHT_SERVER ?? '' },
});
