import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen } from '@pipewright/sdk/ui';
import { ProjectOverview } from './overview/ProjectOverview';
// After the screen's parts, so its rules come last in the bundle, as they always did.
import './overview.css';

// The overview screen, exposed to the web app as overview_remote/Overview (rsbuild.config.ts): its parts are in
// overview/ (the screen's state), grid/, dialogs/, publish/, add-to-list/ and store/ (the project's folders and tasks).

/** The overview screen: a project's folders and tasks, as a tree, a grid and the details of one of them. */
export default exposedScreen(function Overview({ project, Extension }: ScreenProps) {
  if (!project)
    return (
      <p className="muted">Choose a project in the project menu at the top to see its folders and tasks.</p>
    );
  return <ProjectOverview key={project} project={project} Extension={Extension} />;
});
