// An installed addon version for the settings tests (the core mounts one version per name at boot; more versions
// of one addon are installed at run time, as studios do).
import { demoV2 } from '../../addons.js';

export default demoV2;
