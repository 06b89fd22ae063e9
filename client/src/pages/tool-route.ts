import { findTool } from '@duet/contracts/catalog';
import type { ToolDefinition } from '@duet/contracts/tools';

/** The tool a `/:contentTitle` route names, only by its exact public route (`makeLyrics-duet`). */
export function toolForRoute(contentTitle: string | undefined): ToolDefinition | undefined {
  if (!contentTitle) return undefined;
  const tool = findTool(contentTitle);
  return tool && tool.route === `/${contentTitle}` ? tool : undefined;
}
