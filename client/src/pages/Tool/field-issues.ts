import type { CreateBattleRequest, FieldIssue } from '@duet/contracts';
import type { ToolDefinition } from '@duet/contracts/tools';
import { checkToolFields } from '@duet/contracts/validate';
import { textFieldKeys } from './text-field.ts';
import type { InputField } from './tool-draft.ts';
import { INPUT_FIELDS } from './tool-draft.ts';

/** A part of the tool form that can be in error. */
export type FormField = InputField | 'text' | 'image';

/** A message for one field: its key in the `battle` namespace and the values it takes. */
export interface FieldMessage {
  key: string;
  values?: Record<string, unknown>;
}

/**
 * The form field an issue's path names, as the gateway and `checkToolFields` write them:
 * `inputs.<input>` (or deeper, `inputs.keywords.2`) for a tool input, `image` for the image,
 * anything else for the question text.
 */
export function fieldOfIssuePath(path: string): FormField {
  if (path === 'image') return 'image';
  const name = path.replace(/^inputs\./, '').split('.')[0];
  return INPUT_FIELDS.find((n) => n === name) ?? 'text';
}

/** What keeps a request from being sent: the tool's fields as the gateway checks them, and the image a tool needs. */
export function missingFields(tool: ToolDefinition, req: CreateBattleRequest, hasImage: boolean): FieldIssue[] {
  const issues = checkToolFields(tool, req);
  if (tool.image === 'required' && !hasImage) issues.push({ path: 'image', message: 'This tool needs an image' });
  return issues;
}

/** One message per field the issues name, asking for what is missing. */
export function missingFieldMessages(tool: ToolDefinition, issues: readonly FieldIssue[]): Partial<Record<FormField, FieldMessage>> {
  const messages: Partial<Record<FormField, FieldMessage>> = {};
  for (const issue of issues) {
    const field = fieldOfIssuePath(issue.path);
    messages[field] =
      field === 'keywords'
        ? { key: 'validation.keywordsRequired', values: { count: tool.fields.keywords?.min ?? 1 } }
        : field === 'text'
          ? { key: textFieldKeys(tool).required }
          : { key: `validation.${field}Required` };
  }
  return messages;
}
