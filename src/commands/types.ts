/** A custom command or a skill, as read from its Markdown file (custom-commands.ts, skills.ts, plugins/commands.ts). */
export interface CustomCommand {
  /** `name`, or `folder:name` for a file in a subfolder. */
  name: string;
  description: string;
  argumentHint?: string;
  source: 'project' | 'user' | 'plugin';
  /** A plugin's command or skill: the plugin's folder, for `${CLAUDE_PLUGIN_ROOT}`. */
  pluginRoot?: string;
  /** Frontmatter `allowed-tools`: permission rules for the command's inline shell. */
  allowedTools: string[];
  /** The Markdown after the frontmatter. */
  body: string;
  /** Skills (skills.ts): the skill's folder, for `${CLAUDE_SKILL_DIR}`. */
  skillDir?: string;
  /** Skills: frontmatter `when_to_use`, for the Skill tool's list. */
  whenToUse?: string;
  /** Skills: offered to the model by the Skill tool (not `disable-model-invocation: true`). */
  modelInvocable?: boolean;
  /** Skills: a slash command too (not `user-invocable: false`). */
  userInvocable?: boolean;
}
