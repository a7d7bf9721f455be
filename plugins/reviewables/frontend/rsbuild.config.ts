import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The review screen (a version's videos and images, their order and labels, uploads), and its upload bar for
// other screens to embed (ScreenProps.Extension), built with the same preset third-party addons use; the server
// serves dist/.
export default defineConfig(
  addonFrontendConfig({
    name: 'reviewables_screens',
    exposes: { './Review': './src/Review.tsx', './UploadReviewable': './src/UploadReviewable.tsx' },
  }),
);
