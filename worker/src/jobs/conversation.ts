import type { Side, ToolDefinition } from '@duet/contracts';
import type { ChatImage, ChatRequest, ChatTurn } from '../providers/provider.ts';
import type { BattleToRun, EarlierTurn } from '../store/battle.repo.ts';

/** What one side's model is asked for one turn, but for the signal. */
export type TurnRequest = Omit<ChatRequest, 'signal'>;

/**
 * The request of one side for one turn. A first question is the tool's prompt from the visitor's
 * inputs, as ever. A follow-up keeps the first turn's instructions and question (with its image),
 * then every earlier follow-up, each followed by this side's own answer, and asks the follow-up
 * as the visitor wrote it. The demo models answer a follow-up as a question of its own.
 */
export function turnRequest(
  tool: ToolDefinition,
  battle: Pick<BattleToRun, 'text' | 'inputs' | 'lang'>,
  image: ChatImage | undefined,
  earlier: readonly EarlierTurn[],
  side: Side,
): TurnRequest {
  const first = earlier[0];
  if (!first) {
    const prompt = tool.prompt({ inputs: battle.inputs, text: battle.text, hasImage: image !== undefined, lang: battle.lang });
    return { ...prompt, image, maxTokens: tool.maxTokens, context: { tool: tool.slug, lang: battle.lang, inputs: battle.inputs, text: battle.text, hasImage: !!image } };
  }
  const opening = tool.prompt({ inputs: first.inputs, text: first.text, hasImage: first.image !== undefined, lang: battle.lang });
  const history: ChatTurn[] = earlier.map((t, i) => ({ user: i === 0 ? opening.user : t.text, image: t.image, assistant: t.answers[side] ?? '' }));
  return {
    system: opening.system,
    history,
    user: battle.text,
    image,
    maxTokens: tool.maxTokens,
    context: { tool: FOLLOW_UP_TOOL, lang: battle.lang, inputs: {}, text: battle.text, hasImage: !!image },
  };
}

/** The tool a demo model answers a follow-up as: a question as written. */
const FOLLOW_UP_TOOL = 'anything-question';

/** Every text of a request, for an estimate of its input tokens when the provider reports none. */
export const requestTexts = (r: TurnRequest): string[] => [r.system, ...(r.history ?? []).flatMap((t) => [t.user, t.assistant]), r.user];

