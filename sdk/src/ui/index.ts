// @pipewright/sdk/ui: the pieces the web app's screens are built from, for internal and third-party addons alike.
// They carry the web app's look (the pw- classes of its theme); the session's client reaches them through useClient.
export { useAction, type Action } from './action.js';
export {
  annotationDrawing,
  toPicture,
  toPixels,
  type Annotation,
  type Point,
  type Shape,
} from './annotations.js';
export { ClientProvider, exposedScreen, useClient } from './client.js';
export { ConfirmButton, Field, Options, Panel, Saved, type FieldInputProps } from './controls.js';
export { pathInScope, type FolderScope } from '../access.js';
export { deadlineOf, DUE_SOON_DAYS, isOverdue, type Deadline } from '../deadlines.js';
export { carriesHandles, firstNumberOf, rangeOf, timecode, type FrameRange } from '../review-frames.js';
export type { Command, Role, Session, SessionState } from '../review-sessions.js';
export { ErrorBox, messageOf, problemPlace, problemsOf, statusOf } from './errors.js';
export {
  liveStateOf,
  useLiveEvents,
  type Connection,
  type LiveEventsOptions,
  type LiveState,
} from './live.js';
export { useLoaded, type Loaded, type LoadedOptions, type LiveReload } from './loading.js';
export { NoProjectChosen } from './project-guard.js';
export { callRoute, saveBlob, type RouteInit } from './route.js';
export { ChoosableRow, Table } from './table.js';
export { TabbedScreen, Tabs, useSearchParam, useTabParam, type TabSpec } from './tabs.js';
export { exactTime, whenText } from './time.js';
export { When } from './when.js';
export type { Problem } from '../errors.js';
