/**
 * `npm run bench`: each section prints its measured figures. (Minimal runner; sections register here.)
 */
import { runSandboxBench } from './sandbox';

await runSandboxBench();
