/** Background tasks started by Bash, and the tools that read and stop them. */
export { taskOutputTool } from './task-output.js';
export { taskStopTool } from './task-stop.js';
export {
  killAllBackgroundTasks,
  listBackgroundTasks,
  getBackgroundTask,
  stopBackgroundTask,
  type BackgroundTask,
  type TaskStatus,
} from './registry.js';
