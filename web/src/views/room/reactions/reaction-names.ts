/** The reaction set as the page shows it: each name's emoji and its label for screen readers (`chat.reactions.names`). */
import { REACTIONS, REACTION_EMOJI, type ReactionName } from '../../../../../contracts/room/reactions.js';
import { t } from '../../../i18n/i18n.js';

export { REACTIONS, REACTION_EMOJI, type ReactionName };

/** The reaction's label in the page's language (call it while rendering, so a language switch follows). */
export function reactionLabel(reaction: ReactionName): string {
  return t(`chat.reactions.names.${reaction}`);
}
