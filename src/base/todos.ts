/** The model's task list (TodoWrite), as the session keeps it (SessionState.todos). */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface Todo {
  content: string;
  status: TodoStatus;
  /** The same task in the present continuous ("Running the tests"), shown while it is in progress. */
  activeForm: string;
}
