import type { PipewrightClient } from '@pipewright/sdk/client';
import { rangeOf, type FrameRange } from './frames';

// What the review needs to know of a version beyond its reviewables: where its frames sit in the shot's range
// (its own attributes, else its folder's) and the names of its representations (the published files), so the
// screen can say when it has one kind of file and not the other. allAttrib (JSON text) is read rather than
// typed attrib fields, which exist only for attributes the server defines.

export interface VersionFacts {
  range: FrameRange;
  representations: string[];
}

// Enough to name them; a version with more says "and more".
export const REPRESENTATION_LIMIT = 20;

const parsed = (text: string | null | undefined): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export async function readVersionFacts(
  client: PipewrightClient,
  project: string,
  versionId: string,
): Promise<VersionFacts> {
  const data = await client.graphql<{
    project: {
      version: {
        allAttrib: string;
        product: { folder: { allAttrib: string } };
        representations: { edges: { node: { name: string } }[] };
      } | null;
    } | null;
  }>(
    `query ReviewVersionFacts($project: String!, $id: String!, $first: Int!) { project(name: $project) {
      version(id: $id) { allAttrib product { folder { allAttrib } }
        representations(first: $first) { edges { node { name } } } } } }`,
    { project, id: versionId, first: REPRESENTATION_LIMIT },
  );
  const version = data.project?.version;
  return {
    range: rangeOf(parsed(version?.allAttrib), parsed(version?.product.folder.allAttrib)),
    representations: (version?.representations.edges ?? []).map((edge) => edge.node.name),
  };
}
