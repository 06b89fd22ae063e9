import type { CreateBattleRequest } from './schemas/battle.schema.ts';
import { INPUT_FIELDS } from './schemas/inputs.schema.ts';
import type { ToolDefinition } from './tools.ts';

export interface FieldIssue {
  path: string;
  message: string;
}


/**
 * Checks a parsed request against its tool: required fields present, no field the tool does
 * not ask for. Image rules are checked separately, since the image travels apart.
 */
export function checkToolFields(tool: ToolDefinition, req: CreateBattleRequest): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const f = tool.fields;
  if (f.text === 'required' && req.text.trim() === '') {
    issues.push({ path: 'text', message: 'This tool needs a question' });
  }
  for (const name of INPUT_FIELDS) {
    const rule = f[name];
    const value = req.inputs[name];
    if (rule === undefined) {
      if (value !== undefined) issues.push({ path: `inputs.${name}`, message: 'This tool does not take this field' });
      continue;
    }
    if (name === 'keywords') {
      const min = typeof rule === 'object' ? rule.min : 0;
      const count = req.inputs.keywords?.length ?? 0;
      if (count < min) issues.push({ path: 'inputs.keywords', message: `At least ${min} keyword(s) needed` });
    } else if (rule === 'required' && value === undefined) {
      issues.push({ path: `inputs.${name}`, message: 'This field is required' });
    }
  }
  return issues;
}
