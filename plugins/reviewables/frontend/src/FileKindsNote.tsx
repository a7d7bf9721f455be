import { REPRESENTATION_LIMIT } from './version-facts';

// A version can hold two kinds of files, and people meeting one without the other need to know the difference:
// reviewables (videos and images uploaded for review, played here) and representations (the published files a
// pipeline loads, from publishing in a DCC or the publisher). Said in plain words where one of them is missing.

export function FileKindsNote({
  versionName,
  reviewables,
  representations,
}: {
  versionName: string;
  reviewables: number;
  /** The names of the version's representations (up to REPRESENTATION_LIMIT). */
  representations: string[];
}) {
  if (reviewables > 0 && representations.length === 0)
    return (
      <p className="notice pwr-note" role="note">
        <strong>{versionName} has no representations.</strong> Representations are the published files a
        pipeline loads (an EXR sequence, a cache, a scene), added by publishing from a DCC or the publisher.
        What plays here are reviewables: videos and images uploaded for review only, which nothing loads into
        a scene. Publish to this version if the pipeline needs its files.
      </p>
    );
  if (reviewables === 0 && representations.length > 0) {
    const more = representations.length >= REPRESENTATION_LIMIT ? ' and more' : '';
    const names = `${representations.join(', ')}${more}`;
    return (
      <p className="notice pwr-note" role="note">
        <strong>
          {versionName} has {representations.length === 1 ? 'a representation' : 'representations'} ({names})
          but no reviewable.
        </strong>{' '}
        Representations are the published files a pipeline loads; this screen plays reviewables, videos and
        images uploaded for review. To review this version, upload a video or an image of it: drop it here or
        choose it below.
      </p>
    );
  }
  return null;
}
